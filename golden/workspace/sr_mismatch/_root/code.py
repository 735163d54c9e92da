def f():
	return 1

x = 1
y = 2
x = 1
last line