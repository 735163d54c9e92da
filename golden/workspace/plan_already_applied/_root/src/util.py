def util():
    return 2
