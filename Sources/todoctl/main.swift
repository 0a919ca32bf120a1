print("todoctl")
