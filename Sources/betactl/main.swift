print("betactl")
