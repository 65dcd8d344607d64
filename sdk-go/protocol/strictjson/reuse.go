package strictjson

// Reuse lends its maps and arrays to the documents parsed with it and takes them back on
// Release, so a caller that judges one document after another (the host's result check:
// parse, validate, drop) does not build every object of every document anew; creating a
// map, with its hash seed, was about half the cost of parsing a small result. A Reuse is
// for one goroutine at a time; the zero value is ready.
type Reuse struct {
	maps, usedMaps     []map[string]any
	arrays, usedArrays [][]any
}

// Bounds on what a Reuse keeps, so one large document does not stay allocated.
const (
	reuseMaxEntries = 16 // a map or array larger than this is left to the collector
	reuseMaxKept    = 64 // maps, and arrays, kept for the next document
)

// Parse is ParseNested with the maps and arrays of the document drawn from r.
func (r *Reuse) Parse(data []byte, outer int) (any, error) { return parse(data, outer, r) }

// Release takes back every map and array of the documents parsed since the last Release.
// The caller must hold no part of them any more: they are emptied and handed out again.
func (r *Reuse) Release() {
	for _, m := range r.usedMaps {
		if len(m) <= reuseMaxEntries && len(r.maps) < reuseMaxKept {
			clear(m)
			r.maps = append(r.maps, m)
		}
	}
	clear(r.usedMaps)
	r.usedMaps = r.usedMaps[:0]
	for _, a := range r.usedArrays {
		if cap(a) <= reuseMaxEntries && len(r.arrays) < reuseMaxKept {
			clear(a[:cap(a)])
			r.arrays = append(r.arrays, a[:0])
		}
	}
	clear(r.usedArrays)
	r.usedArrays = r.usedArrays[:0]
}

func (r *Reuse) newMap() map[string]any {
	if r == nil {
		return map[string]any{}
	}
	var m map[string]any
	if n := len(r.maps); n > 0 {
		m, r.maps = r.maps[n-1], r.maps[:n-1]
	} else {
		m = map[string]any{}
	}
	r.usedMaps = append(r.usedMaps, m)
	return m
}

func (r *Reuse) newArray() []any {
	if r == nil {
		return []any{}
	}
	if n := len(r.arrays); n > 0 {
		a := r.arrays[n-1]
		r.arrays = r.arrays[:n-1]
		return a
	}
	return []any{}
}

// keep records a, the finished array (append may have moved it), for Release.
func (r *Reuse) keep(a []any) []any {
	if r != nil && cap(a) > 0 {
		r.usedArrays = append(r.usedArrays, a)
	}
	return a
}
