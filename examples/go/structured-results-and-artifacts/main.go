// Command structured-results-and-artifacts shows typed results: an image published
// inline and referenced by an image content part, structured content validated
// against the tool's output schema, and a larger file published by scratch path
// with its size and SHA-256.
package main

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"

	octet "github.com/octet-kit/octet/sdk-go"
)

type swatchArgs struct {
	Red   uint8 `json:"red"`
	Green uint8 `json:"green"`
	Blue  uint8 `json:"blue"`
}

type gradientArgs struct {
	Size int `json:"size" jsonschema:"minimum=1,maximum=2048,description=Width and height in pixels"`
}

func main() {
	ext := octet.New(octet.Options{})
	octet.Tool(ext, octet.ToolSpec{
		Name:        "render_swatch",
		Description: "Render a 32x32 colour swatch as a PNG",
		OutputSchema: map[string]any{
			"type":       "object",
			"properties": map[string]any{"hex": map[string]any{"type": "string", "pattern": "^#[0-9a-f]{6}$"}},
			"required":   []string{"hex"},
		},
	}, func(ctx context.Context, a swatchArgs) (octet.Result, error) {
		img := image.NewRGBA(image.Rect(0, 0, 32, 32))
		for y := 0; y < 32; y++ {
			for x := 0; x < 32; x++ {
				img.Set(x, y, color.RGBA{a.Red, a.Green, a.Blue, 255})
			}
		}
		var buf bytes.Buffer
		if err := png.Encode(&buf, img); err != nil {
			return octet.Result{}, err
		}
		inline, err := octet.InlineArtifact("image/png", "swatch.png", buf.Bytes())
		if err != nil {
			return octet.Result{}, err
		}
		art, err := ext.Artifacts.Publish(ctx, inline)
		if err != nil {
			return octet.Result{}, err
		}
		hex := fmt.Sprintf("#%02x%02x%02x", a.Red, a.Green, a.Blue)
		return octet.ToolResult(
			octet.TextContent("Rendered "+hex+"."),
			octet.ImageContent(art.ArtifactID, "image/png", "a "+hex+" swatch"),
		).WithStructured(map[string]any{"hex": hex}).WithMetadata(map[string]any{"bytes": buf.Len()}), nil
	})
	octet.Tool(ext, octet.ToolSpec{Name: "render_gradient", Description: "Render a gradient PNG into the scratch directory and publish it by path"},
		func(ctx context.Context, a gradientArgs) (octet.Result, error) {
			img := image.NewRGBA(image.Rect(0, 0, a.Size, a.Size))
			for y := 0; y < a.Size; y++ {
				for x := 0; x < a.Size; x++ {
					img.Set(x, y, color.RGBA{uint8(x * 255 / a.Size), uint8(y * 255 / a.Size), uint8((x ^ y) & 255), 255})
				}
			}
			f, err := os.Create(filepath.Join(octet.ScratchDir(), "gradient.png"))
			if err != nil {
				return octet.Result{}, err
			}
			if err := png.Encode(f, img); err != nil {
				f.Close()
				return octet.Result{}, err
			}
			if err := f.Close(); err != nil {
				return octet.Result{}, err
			}
			// The SDK computes size and SHA-256; the host verifies both.
			file, err := octet.ScratchArtifact("image/png", "gradient.png", "gradient.png")
			if err != nil {
				return octet.Result{}, err
			}
			art, err := ext.Artifacts.Publish(ctx, file)
			if err != nil {
				return octet.Result{}, err
			}
			return octet.ToolResult(
				octet.TextContent(fmt.Sprintf("Rendered a %dx%d gradient (%d bytes, sha256 %s).", a.Size, a.Size, art.Size, art.SHA256)),
				octet.ImageContent(art.ArtifactID, "image/png", "a gradient"),
			), nil
		})
	ext.Run()
}
