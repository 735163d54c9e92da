def greet():
    print("hi")


def main():
    greet()
