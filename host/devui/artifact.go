package devui

import (
	"net/http"
	"os"
	"time"
)

// previewable are the image types the page shows inline (the ImagePart MIME types);
// anything else is shown by reference only, never served, so an artifact cannot become
// a page, a script or a download of this origin.
var previewable = map[string]bool{"image/png": true, "image/jpeg": true, "image/gif": true, "image/webp": true}

// apiArtifact serves an image artifact for an ImagePart's preview.
func (s *Server) apiArtifact(w http.ResponseWriter, r *http.Request) {
	rt, _ := s.host()
	if rt == nil {
		fail(w, http.StatusServiceUnavailable, "the host is not started yet")
		return
	}
	id := r.URL.Query().Get("id")
	a, ok, err := rt.Store().GetArtifact(r.Context(), id)
	if err != nil {
		fail(w, http.StatusInternalServerError, "%v", err)
		return
	}
	if !ok {
		fail(w, http.StatusNotFound, "no artifact %q", id)
		return
	}
	if !previewable[a.MIMEType] {
		fail(w, http.StatusUnsupportedMediaType, "artifact %s is %s; only images are previewed", id, a.MIMEType)
		return
	}
	f, err := os.Open(rt.Store().BlobPath(a.SHA256))
	if err != nil {
		fail(w, http.StatusNotFound, "artifact %s has no content: %v", id, err)
		return
	}
	defer f.Close()
	w.Header().Set("Content-Type", a.MIMEType)
	w.Header().Set("Content-Disposition", "inline")
	http.ServeContent(w, r, "", time.Time{}, f)
}
