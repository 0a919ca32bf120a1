// The whole program: what any static Swift binary costs to start (see Package.swift).
print("hello")
