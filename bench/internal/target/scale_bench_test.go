package target

import (
	"context"
	"fmt"
	"sync"
	"testing"
)

// One caller's sequential echo to the first Go floor while n are connected, each in its
// own reference host in this process (as octet-bench's scale phase runs them, sharing
// one store): connected=200 ÷ connected=1 is what idle extensions cost a busy one (the
// scale table's "one caller" column). Before timing, every extension answers 1,000
// concurrent calls spread round-robin, as in the scale phase, so the heap and the
// scheduler are in the state that phase measures. Profile with
//
//	go test ./internal/target -run X -bench 'OneCaller/connected=200' -cpuprofile /tmp/one.prof
func BenchmarkFloorGoHostOneCaller(b *testing.B) {
	dir := floorGoDir(b)
	for _, n := range []int{1, 200} {
		b.Run(fmt.Sprintf("connected=%d", n), func(b *testing.B) {
			ctx := context.Background()
			sessions, closeAll, err := HostGroupStart(dir, nil, EchoCall)(ctx, n)
			if err != nil {
				b.Fatal(err)
			}
			defer func() {
				b.StopTimer() // closing 200 hosts is not a call
				closeAll()
			}()
			var wg sync.WaitGroup
			errs := make(chan error, 1000)
			for i := 0; i < 1000; i++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					if err := sessions[i%n].Echo(ctx); err != nil {
						errs <- err
					}
				}()
			}
			wg.Wait()
			close(errs)
			if err := <-errs; err != nil {
				b.Fatal(err)
			}
			benchEcho(b, func(context.Context) (Session, error) { return nopClose{sessions[0]}, nil })
		})
	}
}

// nopClose leaves closing to the group: benchEcho closes the session it started.
type nopClose struct{ Session }

func (nopClose) Close() error { return nil }
