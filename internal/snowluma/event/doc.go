// Package event reads the frames SnowLuma pushes over its OneBot v11
// WebSocket and decides which subscriptions want them. Frames come from
// outside the process, so decoding is strict and total: a frame is either a
// well-formed event with the header fields the hub routes on, or an error
// that says what is wrong with it; it never panics, and it never guesses.
// The event's own bytes are kept as they came, because what an agent reads
// must be what SnowLuma sent.
package event
