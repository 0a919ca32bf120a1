print("todobench: not written yet")
