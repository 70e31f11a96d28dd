// Package content marks the third-party content in what the server hands
// an agent, and withholds it in lockdown. Every QQ message, request comment
// and notice text was written by someone else, often by anyone at all who
// is in a group the account has joined, and an agent that reads it next to
// tools that can act is one confused step from obeying it.
//
// The package knows shapes: the kinds of items that carry such content (a
// message, a join request, a group notice ...), each with the fields that
// name its author and the fields that are metadata. Everything in an item
// that is not metadata is content. That choice is deliberate: a field this
// package has never heard of (a new SnowLuma release, a web API that
// changed) counts as content and is withheld in lockdown, rather than
// slipping through because no list named it. A few members are not the
// item's author's words (a group card any admin may set, a group's name,
// the nickname of someone else listed beside the item): the shape names
// their own author, or none, and they are judged on their own.
//
// An item with content gains one member, "third_party", which says who wrote
// it and whether anything was withheld; an agent or host can filter on it,
// and a model reading the text sees it beside the words it qualifies. The
// account's own items are not marked. A forward node is never anyone's
// own: its sender is whatever the forward's builder wrote, so its marker
// names that claim apart from the author, and lockdown withholds every
// node (docs/trust-boundary.md lists each field an author is taken from,
// and who controls it). With a trusted list (lockdown), the
// content of an item written by anyone else is replaced by a short marker
// that says why, while the metadata (who, where, when, ids, types) stays,
// so the agent can still act on the item safely.
//
// Events and action results go through the same code: an event is an item
// whose shape follows from its post_type (Filter.Event); an action result
// holds items where the catalog declares them (Filter.Result). Input is
// outside data, so everything here is total: malformed JSON, odd types or
// deep nesting never panic, and in lockdown whatever cannot be read is
// withheld whole.
package content
