package greet

func Hello() string { return "hello" }

func Bye() string { return "bye" }
