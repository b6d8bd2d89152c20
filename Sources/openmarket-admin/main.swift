print("openmarket-admin: not built yet")
