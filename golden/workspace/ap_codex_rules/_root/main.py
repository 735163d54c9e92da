def main():
    run()
