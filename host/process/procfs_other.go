//go:build !linux

package process

// tracking is false: without /proc the host cannot enumerate descendants. It signals the
// process group, and relies on the EOF rule (an extension exits when its stdin closes,
// which the SDKs do) for processes that left the group.
const tracking = false

func readTable() table                    { return table{} }
func identOf(pid int) Ident               { return Ident{Pid: pid} }
func readScratchEnv(int) ([]string, bool) { return nil, false }
func bootID() string                      { return "" }

func readStat(int) (procInfo, bool) { return procInfo{}, false }
