DEBUG = False
TIMEOUT = 30


def load():
    return {"debug": DEBUG, "timeout": TIMEOUT}


def reset():
    global DEBUG
    DEBUG = False
