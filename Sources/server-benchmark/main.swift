print("server-benchmark: not built yet")
