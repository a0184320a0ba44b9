package proxy_test

import (
	"bufio"
	"context"
	"io"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/backfill/proxy"
)

// BenchmarkForwardServerResponse forwards a server's tool result of 1 MiB to the client on stdio.
func BenchmarkForwardServerResponse(b *testing.B) {
	line := `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"` + strings.Repeat("x", 1<<20) + `"}]}}` + "\n"
	cr, cw := io.Pipe()
	pcr, pcw := io.Pipe()
	sr, sw := io.Pipe()
	_, psw := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- (&proxy.Proxy{}).Serve(ctx, cr, pcw, sr, psw) }()
	br := bufio.NewReaderSize(pcr, 2<<20)
	b.SetBytes(int64(len(line)))
	b.ReportAllocs()
	b.ResetTimer()
	go func() {
		for range b.N {
			io.WriteString(sw, line)
		}
	}()
	for range b.N {
		if _, err := br.ReadSlice('\n'); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	cancel()
	cw.Close()
	sw.Close()
	<-done
}
