def greet(name):
    return "Hello, " + name


print(greet("x"))
