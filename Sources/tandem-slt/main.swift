print("tandem-slt")
