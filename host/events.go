package host

import "sync"

// eventQueue delivers status events to Options.OnEvent in order, on one goroutine, so a
// slow console never blocks an extension's lock and events never overtake each other.
type eventQueue struct {
	mu        sync.Mutex
	cond      *sync.Cond
	queue     []Event
	enqueued  int
	delivered int
	deliver   func(Event)
}

func newEventQueue(deliver func(Event)) *eventQueue {
	q := &eventQueue{deliver: deliver}
	q.cond = sync.NewCond(&q.mu)
	go q.loop()
	return q
}

func (q *eventQueue) push(e Event) {
	q.mu.Lock()
	q.queue = append(q.queue, e)
	q.enqueued++
	q.mu.Unlock()
	q.cond.Broadcast()
}

func (q *eventQueue) loop() {
	for {
		q.mu.Lock()
		for len(q.queue) == 0 {
			q.cond.Wait()
		}
		e := q.queue[0]
		q.queue = q.queue[1:]
		q.mu.Unlock()
		q.deliver(e)
		q.mu.Lock()
		q.delivered++
		q.mu.Unlock()
		q.cond.Broadcast()
	}
}

// flush waits until every event pushed so far has been delivered.
func (q *eventQueue) flush() {
	q.mu.Lock()
	target := q.enqueued
	for q.delivered < target {
		q.cond.Wait()
	}
	q.mu.Unlock()
}
