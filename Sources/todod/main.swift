print("todod")
