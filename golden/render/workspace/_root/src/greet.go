package greet

// Hello greets.
func Hello() string {
	return "hello"
}
