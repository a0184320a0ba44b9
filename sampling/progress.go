package sampling

import (
	"context"
	"fmt"
	"sync"

	mcp "github.com/mcpgen/mcpgen/gen/mcp20251125"
)

// A ProgressKind says what a [Progress] event reports.
type ProgressKind string

const (
	// ProgressRequest: the loop asks the model; Iteration is the number of the sampling
	// request, from 1. In the 2025-11-25 flow ([Loop.Run]) the request is sent right after the
	// event; in the multi round-trip flow it goes out in the InputRequiredResult that answers the
	// current request.
	ProgressRequest ProgressKind = "request"
	// ProgressTool: a tool use of the model's answer to request Iteration was handled: run, or
	// refused before it could run (an unknown tool, an invalid input). Tool and ToolUseID name
	// it; Failed tells whether the model got a tool result with isError: true.
	ProgressTool ProgressKind = "tool"
	// ProgressDone: the loop is over (Stop is StopEndTurn or StopMaxIterations) after
	// Iteration sampling requests. A loop that stops with an error reports no ProgressDone.
	ProgressDone ProgressKind = "done"
)

// A Progress is an event of a conversation, for notifications/progress: what happened, and the
// progress number to send.
type Progress struct {
	// Kind says what happened.
	Kind ProgressKind
	// Progress is the event's number in the conversation: 1 for its first event, and one more
	// for each event after it, over the whole conversation — also across a [Snapshot] and
	// [Loop.Resume], since it is derived from what the snapshot holds (see
	// [Conversation.Progress]). The total is unknown.
	Progress float64
	// ConversationID is the conversation's id (see [Snapshot]); empty in the events of
	// SampleTools and SampleStructured.
	ConversationID string
	// Iteration is the number of the sampling request: the one asked for (ProgressRequest),
	// the one whose answer asked for the tool (ProgressTool), or the last one
	// (ProgressDone).
	Iteration int
	// Tool and ToolUseID name the tool use (ProgressTool); Failed is true when its result is
	// an error.
	Tool, ToolUseID string
	Failed          bool
	// Stop is why the loop stopped (ProgressDone).
	Stop StopReason
	// Message says it for a person: "asking the model (request 2 of at most 10)", "tool
	// get_weather ran", "tool add failed", "done after 3 requests". It is what an adapter
	// sends as the notification's message.
	Message string
}

// A ProgressFunc receives the progress events of the loops run with a context that carries it
// (see [WithProgress]). The loop calls it from its own goroutine and from those of the tool
// handlers, one call at a time and in the order of the events' numbers; it should return soon
// (the tool handler that finished waits for it), and must not call the methods of the
// [Conversation] that reports (they wait for it to return). ctx is the context the loop was
// given.
type ProgressFunc func(ctx context.Context, p Progress)

type progressKey struct{}

// WithProgress returns a context that carries f: [Loop.Run], [Loop.StartContext] and
// [Conversation.Accept] given that context report their conversation's events to f, and
// [SampleTools] and [SampleStructured] report each attempt. A nil f removes a sink the context
// carries.
//
// An adapter wires f to its transport when the client's request carries a progressToken: it
// sends notifications/progress with that token, p.Progress as progress, no total, and
// p.Message as message. The spec allows progress notifications only for a request still in
// progress: in the 2025-11-25 flow that is the whole of Loop.Run; in the multi round-trip flow
// of 2026-07-28 each round is a request of its own, and f may send only while that round's
// request is handled, with that round's token (a retry carries its own token, or none), never
// after the round's response. The numbers keep increasing from round to round, so a client that
// reuses a token still sees them increase. Events reported while ctx is done are dropped.
func WithProgress(ctx context.Context, f ProgressFunc) context.Context {
	return context.WithValue(ctx, progressKey{}, f)
}

// ProgressFromContext returns the progress sink ctx carries, or nil. A layer that runs the loop
// or a helper again over work it already reported (a helper replayed from its recorded answers,
// say) wraps it, and passes on only the events it has not reported before:
//
//	if f := sampling.ProgressFromContext(ctx); f != nil {
//		ctx = sampling.WithProgress(ctx, func(ctx context.Context, p sampling.Progress) {
//			if p.Progress > reported {
//				f(ctx, p)
//			}
//		})
//	}
func ProgressFromContext(ctx context.Context) ProgressFunc {
	f, _ := ctx.Value(progressKey{}).(ProgressFunc)
	return f
}

// progressCounter numbers the events of a conversation and delivers them in order.
type progressCounter struct {
	mu sync.Mutex
	n  int64
}

// emit numbers an event and hands it to ctx's sink, if any and ctx is live. The number is taken
// whether or not anyone listens, so that it stays derivable from the conversation.
func (pc *progressCounter) emit(ctx context.Context, id string, p Progress) {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	pc.n++
	f := ProgressFromContext(ctx)
	if f == nil || ctx.Err() != nil {
		return
	}
	p.Progress = float64(pc.n)
	p.ConversationID = id
	f(ctx, p)
}

// progressOf derives the number of the last event of a conversation from its snapshot: one event
// for each sampling request asked for (the Iterations answered and the pending one) and one for
// each tool use the loop handled (those of the loop's answers, which are the last 2×Iterations
// messages of a conversation that goes on).
func progressOf(s *Snapshot) int64 {
	n := int64(s.Iterations) + 1
	msgs := s.Params.Messages
	from := len(msgs) - 2*s.Iterations
	if from < 0 {
		from = 0
	}
	for i := from; i < len(msgs); i++ {
		if msgs[i].Role == mcp.RoleAssistant {
			n += int64(len(toolUses(&msgs[i].Content)))
		}
	}
	return n
}

// Progress returns the number of the conversation's last progress event (see [Progress]): its
// next event has this number plus one. It counts the events whether or not a sink received them.
func (c *Conversation) Progress() float64 {
	c.progress.mu.Lock()
	defer c.progress.mu.Unlock()
	return float64(c.progress.n)
}

// reportRequest reports the request the conversation asks for now.
func (c *Conversation) reportRequest(ctx context.Context) {
	n := c.iterations + 1
	c.progress.emit(ctx, c.id, Progress{
		Kind:      ProgressRequest,
		Iteration: n,
		Message:   fmt.Sprintf("asking the model (request %d of at most %d)", n, c.maxIterations),
	})
}

// reportTool reports a handled tool use.
func (c *Conversation) reportTool(ctx context.Context, use *mcp.ToolUseContent, res *mcp.ToolResultContent) {
	failed := res.IsError != nil && *res.IsError
	msg := fmt.Sprintf("tool %s ran", use.Name)
	if failed {
		msg = fmt.Sprintf("tool %s failed", use.Name)
	}
	c.progress.emit(ctx, c.id, Progress{
		Kind:      ProgressTool,
		Iteration: c.iterations,
		Tool:      use.Name,
		ToolUseID: use.ID,
		Failed:    failed,
		Message:   msg,
	})
}

// reportDone reports the end of the loop.
func (c *Conversation) reportDone(ctx context.Context) {
	msg := fmt.Sprintf("done after %d requests", c.iterations)
	if c.iterations == 1 {
		msg = "done after 1 request"
	}
	if c.stop == StopMaxIterations {
		msg = fmt.Sprintf("stopped at the limit of %d requests", c.iterations)
	}
	c.progress.emit(ctx, c.id, Progress{
		Kind:      ProgressDone,
		Iteration: c.iterations,
		Stop:      c.stop,
		Message:   msg,
	})
}
