//! The two deck editions and how one printed card of either looks: ink colours,
//! symbol sizes, paper tint and the small variations between print runs.

use rand::Rng;
use rand::rngs::StdRng;

/// A printed edition of the deck.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Edition {
    /// The common edition: diamond, oval, squiggle, striped fill.
    Standard,
    /// The edition whose diamond is a rectangle, whose oval stands upright (in
    /// landscape), whose striped fill is stippled dots and whose purple is navy.
    AltRectDotted,
}

impl Edition {
    /// Both editions.
    pub const ALL: [Edition; 2] = [Edition::Standard, Edition::AltRectDotted];

    /// The name used in `../shared/data` labels (`std`, `alt_rect_dotted`).
    pub fn label(self) -> &'static str {
        match self {
            Edition::Standard => "std",
            Edition::AltRectDotted => "alt_rect_dotted",
        }
    }

    /// The edition with this label, if any.
    pub fn from_label(label: &str) -> Option<Edition> {
        Edition::ALL.into_iter().find(|e| e.label() == label)
    }

    /// Nominal ink colours (red, green, purple) as printed on this edition.
    fn inks(self) -> [[f32; 3]; 3] {
        match self {
            Edition::Standard => [
                [225.0, 30.0, 45.0],
                [20.0, 150.0, 65.0],
                [100.0, 40.0, 130.0],
            ],
            Edition::AltRectDotted => {
                [[215.0, 35.0, 40.0], [25.0, 135.0, 85.0], [35.0, 35.0, 95.0]]
            }
        }
    }
}

/// Everything that varies between two prints of the same card: colours,
/// proportions, line widths, fill texture.
#[derive(Clone, Debug)]
pub struct CardStyle {
    /// Which edition the card belongs to.
    pub edition: Edition,
    /// Ink colours (red, green, purple), RGB 0..255.
    pub inks: [[f32; 3]; 3],
    /// Paper colour, RGB 0..255.
    pub paper: [f32; 3],
    /// Symbol width as a fraction of the card width.
    pub symbol_width: f32,
    /// Symbol height as a fraction of the card width.
    pub symbol_height: f32,
    /// Distance between symbol centres as a fraction of the card width.
    pub symbol_pitch: f32,
    /// Outline width as a fraction of the card width.
    pub outline: f32,
    /// Stripe (or dot) period as a fraction of the card width.
    pub texture_period: f32,
    /// Stripe width (or dot radius) as a fraction of the period.
    pub texture_weight: f32,
    /// How strongly the stripes or dots are inked: 1 as printed; less for a
    /// worn print, or a card so far or washed out that its stripes are only
    /// a pale tint inside the outline.
    pub texture_strength: f32,
    /// Corner radius as a fraction of the card width.
    pub corner_radius: f32,
    /// Seed of the stipple pattern.
    pub texture_seed: u64,
    /// How deep the squiggle's dents are (1 = the measured standard squiggle).
    pub squiggle_wave: f32,
    /// Whether the squiggle has the other handedness (a mirrored picture).
    pub mirrored: bool,
}

impl CardStyle {
    /// The nominal look of an edition, without variation.
    pub fn nominal(edition: Edition) -> CardStyle {
        // Standard: measured on a photographed card (symbol 0.67 x 0.32 card
        // widths, centres 0.43 apart, ~50 stripes across the card). Second
        // edition: medians over 107 of stetelepta's training crops (`train/`,
        // 128x96, the card's length squashed from 1.55 widths): symbol 0.64 x
        // 0.30, centres 0.36 apart; its table photos' cards give 0.66 x 0.28,
        // 0.38; the middle is taken. (It was 0.58 x 0.2, 0.3, by eye.) Its
        // stipple darkens the inside of a symbol by about a quarter of the
        // paper's grey (0.65 against 0.85 on two of those crops): dots of
        // 0.36 periods cover about 40%, where 0.22 darkened it by 8%.
        let (symbol_width, symbol_height, pitch, period, weight) = match edition {
            Edition::Standard => (0.67, 0.32, 0.43, 0.02, 0.35),
            Edition::AltRectDotted => (0.65, 0.28, 0.37, 0.022, 0.36),
        };
        CardStyle {
            edition,
            inks: edition.inks(),
            paper: [246.0, 246.0, 242.0],
            symbol_width,
            symbol_height,
            symbol_pitch: pitch,
            outline: 0.022,
            texture_period: period,
            texture_weight: weight,
            texture_strength: 1.0,
            corner_radius: 0.07,
            texture_seed: 1,
            squiggle_wave: 1.0,
            mirrored: false,
        }
    }

    /// A random print of an edition: the nominal look with plausible variation.
    pub fn random(edition: Edition, rng: &mut StdRng) -> CardStyle {
        let nominal = CardStyle::nominal(edition);
        let mut jitter = |x: f32, rel: f32| x * (1.0 + rng.random_range(-rel..=rel));
        let symbol_width = jitter(nominal.symbol_width, 0.1);
        let symbol_height = jitter(nominal.symbol_height, 0.15);
        let symbol_pitch = jitter(nominal.symbol_pitch, 0.1).max(symbol_height * 1.15);
        let squiggle_wave = jitter(1.0, 0.3);
        let outline = jitter(nominal.outline, 0.3);
        let texture_period = jitter(nominal.texture_period, 0.35);
        let texture_weight = jitter(nominal.texture_weight, 0.25);
        let corner_radius = jitter(nominal.corner_radius, 0.4);
        let inks = nominal.inks.map(|ink| {
            let shade = rng.random_range(0.8..1.12);
            ink.map(|c| (c * shade + rng.random_range(-14.0..14.0)).clamp(0.0, 255.0))
        });
        let paper_level: f32 = rng.random_range(225.0..255.0);
        let paper = [0, 1, 2].map(|_| (paper_level + rng.random_range(-6.0..6.0f32)).min(255.0));
        CardStyle {
            edition,
            inks,
            paper,
            symbol_width,
            symbol_height,
            symbol_pitch,
            outline,
            texture_period,
            texture_weight,
            texture_strength: nominal.texture_strength,
            corner_radius,
            texture_seed: rng.random(),
            squiggle_wave,
            mirrored: rng.random_bool(0.5),
        }
    }
}
