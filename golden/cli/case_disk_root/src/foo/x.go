package foo
