package main

import (
	"fmt"
	"math"
	"strings"

	"github.com/mcpgen/mcpgen/bench"
	"github.com/mcpgen/mcpgen/bench/internal/results"
)

// The tables of the hostile shapes (BenchmarkHostile): for every shape and size, the
// time of mcpgen's draft types, of encoding/json into an any and of the jx Skip floor, and the
// time per unit of the shape (byte, member, element, level), whose growth from the smallest size
// to the largest says whether decoding is linear.

const (
	anyDecoder = "any"
	// linearGrowth is the largest growth of the time per unit, from the smallest size of a shape
	// to its largest, that the summary calls linear.
	linearGrowth = 1.25
)

// unitOf is the singular of a shape's unit.
func unitOf(s bench.HostileShape) string { return strings.TrimSuffix(s.Unit, "s") }

// sizeOf writes a size of a shape with its unit: "50MB", "1M members", "9999 levels".
func sizeOf(s bench.HostileShape, n int) string {
	if s.Unit == "bytes" {
		return bench.HostileSizeName(n, s.Unit)
	}
	return bench.HostileSizeName(n, s.Unit) + " " + s.Unit
}

func hostileName(s bench.HostileShape, n int, decoder string) string {
	return "BenchmarkHostile/" + s.Name + "/" + bench.HostileSizeName(n, s.Unit) + "/" + decoder
}

// renderHostile writes the summary of the hostile shapes against their targets, then a
// table per shape.
func renderHostile(res *results.Results) string {
	var b strings.Builder
	b.WriteString(ranOn(res))
	shapes := bench.HostileShapes()
	b.WriteString(hostileSummary(res, shapes))
	for _, s := range shapes {
		b.WriteString(hostileTable(res, s))
	}
	return b.String()
}

// perUnit returns the median ns/op of a decoder on a shape's size n, over n.
func perUnit(res *results.Results, s bench.HostileShape, n int, decoder string) float64 {
	return median(res, hostileName(s, n, decoder), results.NsPerOp) / float64(n)
}

// growth returns how much the time per unit of a decoder grows from a shape's smallest size to
// its largest that ran, and that largest size.
func growth(res *results.Results, s bench.HostileShape, decoder string) (float64, int) {
	first := perUnit(res, s, s.Sizes[0], decoder)
	for i := len(s.Sizes) - 1; i > 0; i-- {
		if last := perUnit(res, s, s.Sizes[i], decoder); !math.IsNaN(last) {
			return last / first, s.Sizes[i]
		}
	}
	return math.NaN(), 0
}

func hostileSummary(res *results.Results, shapes []bench.HostileShape) string {
	t := &results.Table{Header: []string{"shape", "largest size", "time ÷ any's", "as fast as any",
		"growth of time per unit, smallest to largest size (1 = linear)", "linear",
		"growth: any", "growth: jx.Skip"}}
	for _, s := range shapes {
		g, largest := growth(res, s, mcpgen)
		if largest == 0 {
			continue
		}
		ratio := median(res, hostileName(s, largest, mcpgen), results.NsPerOp) /
			median(res, hostileName(s, largest, anyDecoder), results.NsPerOp)
		gAny, _ := growth(res, s, anyDecoder)
		gSkip, _ := growth(res, s, jxSkip)
		t.Rows = append(t.Rows, []string{
			s.Name, sizeOf(s, largest), results.Ratio(ratio), verdict(ratio <= 1, ratio),
			fmt.Sprintf("%.2f (%s per %s, from %s)", g, nsPer(perUnit(res, s, largest, mcpgen)), unitOf(s), bench.HostileSizeName(s.Sizes[0], s.Unit)),
			verdict(g <= linearGrowth, g), fmt.Sprintf("%.2f", gAny), fmt.Sprintf("%.2f", gSkip),
		})
	}
	return fmt.Sprintf("\nWhere %s stands against the hostile-shape target (\"long strings and objects with a million members decoded at least "+
		"as fast as encoding/json decodes them into any, linear time throughout\"); a growth of the time per unit up to %.2f "+
		"is called linear:\n\n%s", mcpgen, linearGrowth, t.String())
}

func verdict(ok bool, v float64) string {
	switch {
	case math.IsNaN(v):
		return "cannot tell"
	case ok:
		return "yes"
	}
	return "no"
}

// nsPer writes a time per unit: "1.52 ns", "310 ns".
func nsPer(ns float64) string {
	if math.IsNaN(ns) {
		return "—"
	}
	if ns < 10 {
		return fmt.Sprintf("%.2f ns", ns)
	}
	return results.Duration(ns)
}

func hostileTable(res *results.Results, s bench.HostileShape) string {
	decoders := bench.HostileDecoders()
	t := &results.Table{Header: []string{"size", "input"}}
	for _, d := range decoders {
		if d.Name == jxSkip { // a floor: it allocates nothing
			t.Header = append(t.Header, d.Name, "±", "MB/s")
			continue
		}
		t.Header = append(t.Header, d.Name, "±", "MB/s", "B/op", "allocs/op")
	}
	unit := unitOf(s)
	t.Header = append(t.Header, "÷ any", mcpgen+" per "+unit, "any per "+unit)
	ran := false
	for _, n := range s.Sizes {
		row := []string{bench.HostileSizeName(n, s.Unit), results.Bytes(float64(len(s.Build(n))))}
		for _, d := range decoders {
			name := hostileName(s, n, d.Name)
			bm := res.Get(name)
			var cells []string
			if bm == nil {
				reason := res.Skipped[name]
				if reason == "" {
					reason = res.Skipped[strings.TrimSuffix(name, "/"+d.Name)] // the size skipped
				}
				if reason == "" {
					reason = "not run"
				}
				cells = []string{reason, "", "", "", ""}
			} else {
				ran = true
				ns, spread := bm.Median(results.NsPerOp)
				mbs, _ := bm.Median(results.MBPerS)
				bop, _ := bm.Median(results.BPerOp)
				allocs, _ := bm.Median(results.AllocsOp)
				cells = []string{results.Duration(ns), fmt.Sprintf("%.0f%%", spread*100), fmt.Sprintf("%.0f", mbs),
					results.Bytes(bop), results.Count(allocs)}
			}
			if d.Name == jxSkip {
				cells = cells[:3]
			}
			row = append(row, cells...)
		}
		ratio := median(res, hostileName(s, n, mcpgen), results.NsPerOp) / median(res, hostileName(s, n, anyDecoder), results.NsPerOp)
		row = append(row, results.Ratio(ratio), nsPer(perUnit(res, s, n, mcpgen)), nsPer(perUnit(res, s, n, anyDecoder)))
		t.Rows = append(t.Rows, row)
	}
	if !ran {
		return ""
	}
	var sizes []string
	for _, n := range s.Sizes {
		sizes = append(sizes, bench.HostileSizeName(n, s.Unit))
	}
	if s.Unit != "bytes" {
		sizes[len(sizes)-1] += " " + s.Unit
	}
	return fmt.Sprintf("\n**%s**: %s (%s; n = %s).\n\n%s", s.Name, s.What, s.Type, strings.Join(sizes, ", "), t.String())
}
