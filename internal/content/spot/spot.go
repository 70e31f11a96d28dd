// Package spot names a place in an action's result data that holds content
// written by other people. It sits under content, apart from it, so that
// the catalog can declare the places (catalog.ContentSpot is this type) and
// content can read them, while content's own tests still load the catalog:
// neither the catalog nor content imports the other.
package spot

// Spot is one place in an action's result data that holds items written by
// other people (messages, request comments, notices). At is a path into
// data: member names joined by dots, "[]" for every element of an array, ""
// for data itself; Shape names the kind of item found there (see package
// internal/content).
type Spot struct {
	At    string `json:"at"`
	Shape string `json:"shape"`
}
