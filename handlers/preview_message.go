package handlers

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/internal/fault"
	"github.com/snowluma/snowluma-mcp/internal/lang"
	"github.com/snowluma/snowluma-mcp/internal/schema"
	"github.com/snowluma/snowluma-mcp/pipeline"
	"github.com/snowluma/snowluma-mcp/uiasset"
)

type previewArgs struct {
	MessageType string      `json:"message_type" jsonschema:"群聊 group 或私聊 private（message type）。" schema:"enum=group|private"`
	TargetID    schema.Int  `json:"target_id" jsonschema:"目标群号或 QQ 号（target）。" schema:"minimum=1,maximum=9007199254740991"`
	Text        string      `json:"text" jsonschema:"正文（text），按字面处理，CQ 码样式也只是文字；更长请分条。" schema:"minLength=1,maxLength=5000"`
	ReplyTo     *schema.Int `json:"reply_to,omitempty" jsonschema:"被回复消息的 message_id（reply to）。" schema:"minimum=-2147483648,maximum=2147483647"`
}

// draft is preview_message's payload: what the message is, in words and as
// data, and the exact invoke_action arguments that would send it. The
// panel renders it; an agent without the panel reads it. The text appears
// once, in the text segment of invoke_action's params: a copy beside it
// (and another in the preview) multiplied a long text's reply for nothing.
type draft struct {
	MessageType string     `json:"message_type" schema:"enum=group|private"`
	TargetID    int64      `json:"target_id"`
	ReplyTo     *int64     `json:"reply_to,omitempty" jsonschema:"The quoted message's ID, when the draft replies."`
	Characters  int        `json:"characters" jsonschema:"The text's length in characters (Unicode code points). The text itself, exactly as it would be sent, is the text segment of invoke_action.params.message."`
	Preview     string     `json:"preview" jsonschema:"The draft in words (target, quote, length), for a person to check; the text is not repeated here."`
	CanSend     bool       `json:"can_send" jsonschema:"True only in write mode: invoke_action exists and may send it."`
	Mode        string     `json:"mode"`
	Invoke      invokeCall `json:"invoke_action" jsonschema:"The exact arguments of the invoke_action call that would send the draft."`
	Note        string     `json:"note" jsonschema:"Nothing was sent: what sending it takes."`
}

type invokeCall struct {
	Action string         `json:"action"`
	Params map[string]any `json:"params"`
}

type segment struct {
	Type string            `json:"type"`
	Data map[string]string `json:"data"`
}

// PreviewMessage builds a message draft without contacting SnowLuma, in
// every mode, so a person can check the target, quote and text before
// anything is sent; sending stays invoke_action's job and goes through its
// gates. Clients that support MCP Apps are pointed at the panel through the
// tool's _meta (the server removes it for everyone else).
func PreviewMessage(d *Deps) *pipeline.Tool {
	canSend := d.Config.Mode.Allows(config.ModeWrite)
	return pipeline.NewTool[previewArgs, draft](pipeline.Spec{
		Name:        "preview_message",
		Description: "预览消息草稿（preview message），从不发送：返回可读草稿、can_send（write 模式下为 true）与发送它的 invoke_action 参数。",
		Sample:      pipeline.Sample{Good: `{"message_type":"group","target_id":123456789,"text":"hi"}`, Bad: `{"message_type":"group","target_id":0,"text":"hi"}`},
		Summary: lang.Text{
			EN: "Shows a message draft without sending it.",
			ZH: "预览一条消息草稿，不发送。",
		},
		MinMode: config.ModeDocs, Actions: pipeline.NoActions, Annotations: readOnlyDocs,
		// target_id and reply_to are read as every action reads an id.
		QuotedIDs: true,
		Meta: mcp.Meta{
			"ui": map[string]any{"resourceUri": uiasset.URI},
			// The key hosts read before _meta.ui existed; ext-apps writes both.
			"ui/resourceUri": uiasset.URI,
		},
	}, func(ctx context.Context, c *pipeline.Call, args *previewArgs) (pipeline.Reply[draft], error) {
		dr, err := buildDraft(args, d.Config.Mode, canSend)
		if err != nil {
			return pipeline.Reply[draft]{}, err
		}
		return pipeline.Reply[draft]{Payload: *dr}, nil
	})
}

// buildDraft checks what the schema cannot say and assembles the draft.
func buildDraft(a *previewArgs, mode config.Mode, canSend bool) (*draft, error) {
	if strings.TrimSpace(a.Text) == "" {
		return nil, fault.Errorf(fault.CodeInvalidArgument, "text is blank: QQ does not send an empty message").Unsent().
			Then("Call preview_message again with the words to send in text.")
	}
	if a.ReplyTo != nil && *a.ReplyTo == 0 {
		return nil, fault.Errorf(fault.CodeInvalidArgument, "reply_to is 0, which is never a message ID: give the quoted message's message_id, or leave reply_to out").Unsent().
			Then("Call preview_message again with the quoted message's message_id in reply_to, or without reply_to.")
	}
	dr := &draft{MessageType: a.MessageType, TargetID: int64(a.TargetID), Characters: utf8.RuneCountInString(a.Text), CanSend: canSend, Mode: string(mode)}
	var segs []segment
	if a.ReplyTo != nil {
		id := int64(*a.ReplyTo)
		dr.ReplyTo = &id
		segs = append(segs, segment{Type: "reply", Data: map[string]string{"id": strconv.FormatInt(id, 10)}})
	}
	// One text segment: whatever the text looks like (a CQ code, HTML), it
	// is sent as these characters.
	segs = append(segs, segment{Type: "text", Data: map[string]string{"text": a.Text}})
	if a.MessageType == "group" {
		dr.Invoke = invokeCall{Action: "send_group_msg", Params: map[string]any{"group_id": dr.TargetID, "message": segs}}
	} else {
		dr.Invoke = invokeCall{Action: "send_private_msg", Params: map[string]any{"user_id": dr.TargetID, "message": segs}}
	}
	dr.Preview = preview(dr)
	if canSend {
		dr.Note = "Nothing was sent. To send, call invoke_action with invoke_action's arguments, once; a success means SnowLuma accepted the message, not that QQ delivered it."
	} else {
		dr.Note = fmt.Sprintf("Nothing was sent, and this server cannot send it: it runs in %s mode, and sending needs write mode (invoke_action).", mode)
	}
	return dr, nil
}

// preview is the draft in words, without the text itself.
func preview(dr *draft) string {
	var b strings.Builder
	if dr.MessageType == "group" {
		fmt.Fprintf(&b, "To group %d (群聊)\n", dr.TargetID)
	} else {
		fmt.Fprintf(&b, "To user %d (私聊)\n", dr.TargetID)
	}
	if dr.ReplyTo != nil {
		fmt.Fprintf(&b, "Replying to message %d (回复)\n", *dr.ReplyTo)
	}
	fmt.Fprintf(&b, "Text: %d characters, sent literally: the text segment of invoke_action.params.message", dr.Characters)
	return b.String()
}
