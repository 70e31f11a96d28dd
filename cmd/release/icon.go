package main

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
)

// The bundle's icon (icon.png, 512×512 as Claude Desktop recommends): a
// white snowflake on a blue rounded square. It is drawn here rather than
// committed as an image so that its source is readable and reviewable.
// Only integer arithmetic is used: the Go compiler may fuse a floating
// point multiply and add on arm64 and not on amd64, and the icon's bytes
// must not depend on the machine that runs make dist.

const (
	iconSize = 512
	iconSub  = 4 // subsamples per pixel along each axis (antialiasing)
)

var (
	iconBlue  = [3]int64{0x2a, 0x7a, 0xd4}
	iconWhite = [3]int64{0xff, 0xff, 0xff}
)

// A stroke is a segment drawn with round ends, in subsample units.
type stroke struct{ ax, ay, bx, by, r int64 }

// covers reports whether the point (x, y) is within s.r of the segment.
func (s stroke) covers(x, y int64) bool {
	abx, aby := s.bx-s.ax, s.by-s.ay
	apx, apy := x-s.ax, y-s.ay
	ab2 := abx*abx + aby*aby
	ap2 := apx*apx + apy*apy
	dot := apx*abx + apy*aby
	switch {
	case dot <= 0:
		return ap2 <= s.r*s.r
	case dot >= ab2:
		bpx, bpy := x-s.bx, y-s.by
		return bpx*bpx+bpy*bpy <= s.r*s.r
	}
	// The squared distance to the line is ap2 - dot²/ab2.
	return ap2*ab2-dot*dot <= s.r*s.r*ab2
}

// flake is the snowflake: six arms 60° apart, each with two pairs of
// side branches. Directions are (cos, sin) of k·60° scaled by 1000000.
func flake() []stroke {
	const unit = 1000000
	const c, s = 500000, 866025 // cos 60°, sin 60°
	dirs := [6][2]int64{{unit, 0}, {c, s}, {-c, s}, {-unit, 0}, {-c, -s}, {c, -s}}
	center := int64(iconSize * iconSub / 2)
	at := func(d [2]int64, length int64) (int64, int64) {
		return center + d[0]*length/unit, center + d[1]*length/unit
	}
	sub := int64(iconSub)
	arm, thick, branch := 190*sub, 14*sub, 11*sub
	var out []stroke
	for i, d := range dirs {
		ex, ey := at(d, arm)
		out = append(out, stroke{center, center, ex, ey, thick})
		// Side branches leave the arm at 60° on either side, pointing
		// outwards: along the neighbouring directions, from a point on
		// the arm.
		left, right := dirs[(i+1)%6], dirs[(i+5)%6]
		for _, b := range []struct{ from, length int64 }{{95 * sub, 62 * sub}, {145 * sub, 40 * sub}} {
			fx, fy := at(d, b.from)
			for _, n := range [][2]int64{left, right} {
				out = append(out, stroke{fx, fy, fx + n[0]*b.length/unit, fy + n[1]*b.length/unit, branch})
			}
		}
	}
	return out
}

// inRoundedSquare reports whether (x, y) lies in the icon's background: the
// whole square with corners rounded by a radius of 96 pixels.
func inRoundedSquare(x, y int64) bool {
	size, r := int64(iconSize*iconSub), int64(96*iconSub)
	cx, cy := x, y
	switch {
	case x < r:
		cx = r
	case x >= size-r:
		cx = size - r
	}
	switch {
	case y < r:
		cy = r
	case y >= size-r:
		cy = size - r
	}
	dx, dy := x-cx, y-cy
	return dx*dx+dy*dy <= r*r
}

// icon draws the icon and encodes it as PNG.
func icon() []byte {
	img := image.NewNRGBA(image.Rect(0, 0, iconSize, iconSize))
	strokes := flake()
	const n = iconSub * iconSub
	for py := 0; py < iconSize; py++ {
		for px := 0; px < iconSize; px++ {
			var bg, fg int64
			for sy := 0; sy < iconSub; sy++ {
				for sx := 0; sx < iconSub; sx++ {
					x, y := int64(px*iconSub+sx), int64(py*iconSub+sy)
					if !inRoundedSquare(x, y) {
						continue
					}
					bg++
					for _, s := range strokes {
						if s.covers(x, y) {
							fg++
							break
						}
					}
				}
			}
			if bg == 0 {
				continue
			}
			var rgb [3]uint8
			for i := range rgb {
				rgb[i] = uint8((iconBlue[i]*(bg-fg) + iconWhite[i]*fg) / bg)
			}
			img.SetNRGBA(px, py, color.NRGBA{rgb[0], rgb[1], rgb[2], uint8(bg * 255 / n)})
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		panic(err) // encoding an in-memory image cannot fail
	}
	return b.Bytes()
}
