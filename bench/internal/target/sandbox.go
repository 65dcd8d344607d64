package target

// Unconfined, when set, starts every extension outside the sandbox (octet-host --no-sandbox),
// to compare the two; by default the bench measures what the host does, which is to confine.
var Unconfined bool

func unconfined(string) bool { return Unconfined }
