package checkup

import (
	"encoding/json"
	"fmt"
	"io"
)

// Write prints the report for a person: one line per item, its status
// first, and under an item that is not OK the line that says what to
// change; then the verdict.
func (r *Report) Write(w io.Writer) {
	width := 0
	for _, it := range r.Items {
		width = max(width, len(it.Name))
	}
	for _, it := range r.Items {
		fmt.Fprintf(w, "%-4s  %-*s  %s\n", it.Status, width, it.Name, it.Detail)
		if it.Fix != "" && it.Status != OK && it.Status != Skip {
			fmt.Fprintf(w, "      %-*s  → %s\n", width, "", it.Fix)
		}
	}
	failed := 0
	for _, it := range r.Items {
		if it.Status == Fail {
			failed++
		}
	}
	if r.OK {
		fmt.Fprintln(w, "everything the configured mode needs works")
		return
	}
	noun := "items"
	if failed == 1 {
		noun = "item"
	}
	fmt.Fprintf(w, "%d %s failed: the server would not work as configured\n", failed, noun)
}

// WriteJSON prints the report as one JSON object, for scripts.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}
