// Command bare-go does nothing: its start-to-exit time is the cold-start baseline a
// Go extension is compared with.
package main

func main() {}
