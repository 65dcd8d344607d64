package main

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// maxConsoleLine bounds one console line; a longer line is refused and the console reads
// on (bufio.Scanner would stop at it, ending `run` with exit 0 and dropping every command
// after it).
const maxConsoleLine = 1 << 20

// consoleLine is one line of the console: its text, or the length of a refused line.
type consoleLine struct {
	text    string
	tooLong int // bytes of a line over maxConsoleLine, which is discarded; 0 otherwise
}

// readConsole sends stdin's lines, then closes lines. At most maxConsoleLine bytes of a
// line are held: the rest of a longer one is read and discarded.
func readConsole(stdin io.Reader, lines chan<- consoleLine) {
	defer close(lines)
	r := bufio.NewReaderSize(stdin, 64<<10)
	var buf []byte
	over := 0 // bytes of the current line beyond what buf holds
	for {
		chunk, err := r.ReadSlice('\n')
		end := errors.Is(err, io.EOF) && len(chunk) == 0
		complete := err == nil || (errors.Is(err, io.EOF) && len(chunk) > 0)
		if !end {
			if over == 0 && len(buf)+len(chunk) <= maxConsoleLine+1 { // +1: the newline
				buf = append(buf, chunk...)
			} else {
				over += len(buf) + len(chunk)
				buf = buf[:0]
			}
		}
		if complete {
			if over > 0 {
				if err == nil {
					over-- // the newline
				}
				lines <- consoleLine{tooLong: over}
			} else {
				lines <- consoleLine{text: string(bytes.TrimSuffix(buf, []byte("\n")))}
			}
			buf, over = buf[:0], 0
		}
		if err != nil && !errors.Is(err, bufio.ErrBufferFull) {
			return
		}
	}
}
