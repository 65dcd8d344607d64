package devui

import (
	"embed"
	"html"
	"net/http"
	"strings"
)

// assets is the page: index.html (hand-written) and app.js, app.css, which `go run
// mage.go inspectorBundle` builds from inspector/src with esbuild. The bundle is
// committed as a generated artifact so that `go build` and `go install` work on a fresh
// clone without Node; `go run mage.go drift` rebuilds it and fails if it differs.
//
//go:embed assets/index.html assets/app.js assets/app.css
var assets embed.FS

// page serves index.html with the token in its asset URLs (every request carries it).
func (s *Server) page(w http.ResponseWriter, r *http.Request) {
	b, err := assets.ReadFile("assets/index.html")
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_, _ = w.Write([]byte(strings.ReplaceAll(string(b), "{{TOKEN}}", html.EscapeString(s.token))))
}

func (s *Server) asset(name, ctype string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		b, err := assets.ReadFile("assets/" + name)
		if err != nil {
			http.Error(w, err.Error(), http.StatusNotFound)
			return
		}
		w.Header().Set("Content-Type", ctype)
		_, _ = w.Write(b)
	}
}
