print("openmarket-sandbox: not built yet")
