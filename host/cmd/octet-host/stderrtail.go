package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/octet-kit/octet/host"
	"github.com/octet-kit/octet/host/process"
	"github.com/octet-kit/octet/sdk-go/jsonrpc"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

// tailLines is how many of an extension's last stderr lines a failure report shows.
const tailLines = 20

// reportExtensionFault prints, after a failed call whose cause is inside the extension (a
// handler exception or another internal error, a crash), the extension's last stderr lines
// readably (a JSON log record's traceback as lines) and where its whole log is. Faults of
// the caller (bad arguments, an unknown tool) print nothing more.
func reportExtensionFault(w io.Writer, ext *host.Extension, err error) {
	var lines []string
	var te *host.TransportError
	var we *jsonrpc.Error
	switch {
	case errors.As(err, &te):
		lines = te.Stderr // the generation is gone; the error kept its tail
	case errors.As(err, &we) && we.Code == protocol.CodeInternalError:
		lines = ext.StderrTail()
	default:
		return
	}
	if len(lines) > tailLines {
		lines = lines[len(lines)-tailLines:]
	}
	if len(lines) > 0 {
		fmt.Fprintf(w, "  last stderr lines of %s:\n", ext.Name())
		for _, l := range process.Readable(lines) {
			fmt.Fprintf(w, "    %s\n", l)
		}
	}
	if p := ext.LogPath(); p != "" {
		fmt.Fprintf(w, "  full log: %s\n", p)
	}
}
