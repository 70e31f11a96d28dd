package pipeline

// Trail hears, as it happens, what a transfer may leave behind if it stops
// half-way, and how its cleanup went. A background task records the first
// durably before the thing exists, so that a start after a crash can clean
// up what the dead process left (a hidden partial file, chunks held by
// SnowLuma); the second lets it say in its own words what became of the
// transfer. Its methods match download.Tracker and upload.Tracker, so a
// handler hands c.Trail to either as it is.
type Trail interface {
	// Partial: a download is about to create its partial file at path.
	// An error stops the download before the file exists.
	Partial(path string) error
	// Removed: the partial file of a download that stopped was removed
	// (err nil) or could not be.
	Removed(path string, err error)
	// Stream: an upload is about to send the first chunk of stream id. An
	// error stops the upload before anything is sent.
	Stream(id string) error
	// Reset: the reset of an upload that stopped reached SnowLuma (err
	// nil) or did not.
	Reset(id string, err error)
}
