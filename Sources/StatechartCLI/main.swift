print("statechart: not built yet")
