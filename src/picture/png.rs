//! PNG pictures: the SVG rendered with resvg. The font is bundled (DejaVu
//! Sans Mono Bold, under its free licence in `assets/fonts/`) and is the only
//! one resvg's font database holds, so text renders the same everywhere and
//! never depends on the system's fonts.

use super::{Options, svg};
use crate::domain::Position;
use resvg::{tiny_skia, usvg};

static FONT: &[u8] = include_bytes!("../../assets/fonts/DejaVuSansMono-Bold.ttf");

fn pixmap(position: &Position, options: &Options) -> Result<tiny_skia::Pixmap, String> {
    let svg_text = svg::render(position, options);
    let mut opt = usvg::Options {
        font_family: svg::FONT_FAMILY.to_owned(),
        ..usvg::Options::default()
    };
    opt.fontdb_mut().load_font_data(FONT.to_vec());
    let tree = usvg::Tree::from_str(&svg_text, &opt).map_err(|e| format!("drawing: {e}"))?;
    let mut pixmap = tiny_skia::Pixmap::new(options.width, options.height)
        .ok_or_else(|| format!("no picture of {}x{}", options.width, options.height))?;
    // The SVG's own width and height are the size asked for; its view box
    // scales the drawing into it.
    resvg::render(
        &tree,
        tiny_skia::Transform::identity(),
        &mut pixmap.as_mut(),
    );
    Ok(pixmap)
}

/// Renders `position` as PNG bytes of `options.width` × `options.height`.
pub fn render(position: &Position, options: &Options) -> Result<Vec<u8>, String> {
    pixmap(position, options)?
        .encode_png()
        .map_err(|e| format!("PNG: {e}"))
}

/// The picture as straight (not premultiplied) RGBA pixels, row by row, as
/// clipboards take images.
pub fn render_rgba(position: &Position, options: &Options) -> Result<Vec<u8>, String> {
    let pixmap = pixmap(position, options)?;
    Ok(pixmap
        .pixels()
        .iter()
        .flat_map(|p| {
            let c = p.demultiply();
            [c.red(), c.green(), c.blue(), c.alpha()]
        })
        .collect())
}
