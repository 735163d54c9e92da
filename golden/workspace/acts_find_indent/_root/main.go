package main

func main() {
	x := 1
	if x > 0 {
		println(x)
	}
}
