//! The RDP colour combiner (`G_SETCOMBINE`), evaluated into what a glTF material can say:
//! `baseColorFactor * texture * COLOR_0`.
//!
//! Each cycle computes `(a - b) * c + d` per colour and per alpha, with inputs chosen by the
//! mux fields (libultra gbi.h: `G_CCMUX_*`, `G_ACMUX_*`, packed by `GCCc0w0`, `GCCc1w0`,
//! `GCCc0w1`, `GCCc1w1`). In 2-cycle mode the second cycle's `COMBINED` is the first cycle's
//! result. We evaluate symbolically: every value is a polynomial in TEXEL0 and SHADE (each of
//! degree at most one) with constant colour coefficients (PRIMITIVE, ENVIRONMENT, 1, 0 are
//! known constants). A result of one term `k * [TEXEL0] * [SHADE]` is exactly a glTF material
//! (factor k, the texture when TEXEL0 is in it, vertex colours when SHADE is); anything else
//! (sums such as `(TEXEL0 - ENV) * SHADE + ENV`, TEXEL1, noise, LOD fractions, squares) is
//! approximated, and the caller is told.

/// The two words of a `G_SETCOMBINE` command.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Combine {
    /// The command word (opcode 0xFC and the first mux fields).
    pub w0: u32,
    /// The second word (the remaining mux fields).
    pub w1: u32,
}

/// One cycle's mux selectors: colour a, b, c, d and alpha a, b, c, d.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cycle {
    /// The colour inputs a, b, c, d (`G_CCMUX_*`).
    pub rgb: [u8; 4],
    /// The alpha inputs a, b, c, d (`G_ACMUX_*`).
    pub alpha: [u8; 4],
}

impl Combine {
    /// `G_CC_SHADE` in both cycles, what a display list that never sets the combiner draws
    /// with in our reading (the setup display lists before an actor's draw set their own).
    pub const SHADE: Combine = Combine { w0: 0xFCFF_FFFF, w1: 0xFFFE_793C };

    /// The command gbi.h's `gsDPSetCombineLERP(a0, b0, c0, d0, Aa0, Ab0, Ac0, Ad0, a1, b1, c1,
    /// d1, Aa1, Ab1, Ac1, Ad1)` makes, packed from its `GCCc0w0`/`GCCc1w0`/`GCCc0w1`/`GCCc1w1`
    /// layout (the encoder's side, written from the bit layout apart from [`Combine::cycles`]).
    pub fn lerp(c0: [u32; 8], c1: [u32; 8]) -> Combine {
        let w0 = 0xFC00_0000
            | (c0[0] & 0xF) << 20
            | (c0[2] & 0x1F) << 15
            | (c0[4] & 7) << 12
            | (c0[6] & 7) << 9
            | (c1[0] & 0xF) << 5
            | (c1[2] & 0x1F);
        let w1 = (c0[1] & 0xF) << 28
            | (c0[3] & 7) << 15
            | (c0[5] & 7) << 12
            | (c0[7] & 7) << 9
            | (c1[1] & 0xF) << 24
            | (c1[4] & 7) << 21
            | (c1[6] & 7) << 18
            | (c1[3] & 7) << 6
            | (c1[5] & 7) << 3
            | (c1[7] & 7);
        Combine { w0, w1 }
    }

    /// The two cycles' selectors (gbi.h bit layout).
    pub fn cycles(self) -> [Cycle; 2] {
        let (w0, w1) = (self.w0, self.w1);
        let f = |w: u32, shift: u32, bits: u32| ((w >> shift) & ((1 << bits) - 1)) as u8;
        [
            Cycle {
                rgb: [f(w0, 20, 4), f(w1, 28, 4), f(w0, 15, 5), f(w1, 15, 3)],
                alpha: [f(w0, 12, 3), f(w1, 12, 3), f(w0, 9, 3), f(w1, 9, 3)],
            },
            Cycle {
                rgb: [f(w0, 5, 4), f(w1, 24, 4), f(w0, 0, 5), f(w1, 6, 3)],
                alpha: [f(w1, 21, 3), f(w1, 3, 3), f(w1, 18, 3), f(w1, 0, 3)],
            },
        ]
    }
}

/// Variables a term may hold: TEXEL0's colour, SHADE's colour, TEXEL0's alpha, SHADE's alpha.
const T: u8 = 1;
const S: u8 = 2;
const TA: u8 = 4;
const SA: u8 = 8;

/// A polynomial: coefficient (one channel) by monomial (a set of the variables above).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Poly([f32; 16]);

impl Poly {
    fn constant(k: f32) -> Poly {
        let mut p = [0.0; 16];
        p[0] = k;
        Poly(p)
    }
    fn var(v: u8) -> Poly {
        let mut p = [0.0; 16];
        p[v as usize] = 1.0;
        Poly(p)
    }
    fn sub(self, o: Poly) -> Poly {
        Poly(std::array::from_fn(|i| self.0[i] - o.0[i]))
    }
    fn add(self, o: Poly) -> Poly {
        Poly(std::array::from_fn(|i| self.0[i] + o.0[i]))
    }
    /// The product; a variable met twice (TEXEL0 * TEXEL0) is a square no material holds:
    /// kept as the single variable, and `inexact` set.
    fn mul(self, o: Poly, inexact: &mut bool) -> Poly {
        let mut p = [0.0; 16];
        for (i, &a) in self.0.iter().enumerate() {
            for (j, &b) in o.0.iter().enumerate() {
                if a != 0.0 && b != 0.0 {
                    if i & j != 0 {
                        *inexact = true;
                    }
                    p[i | j] += a * b;
                }
            }
        }
        Poly(p)
    }
    fn terms(&self) -> impl Iterator<Item = (usize, f32)> + '_ {
        self.0.iter().copied().enumerate().filter(|&(_, k)| k.abs() > 1e-6)
    }
}

/// The constant colours the combiner reads (RGBA, 0..1).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Constants {
    /// The primitive colour (`G_SETPRIMCOLOR`).
    pub prim: [f32; 4],
    /// The environment colour (`G_SETENVCOLOR`).
    pub env: [f32; 4],
}

/// What the combiner's result is as a glTF material. The mesh's texture and vertex colours
/// are ours to write: an input the colour reads but the alpha does not (or the reverse) is
/// written with that part white, so `factor * texture * COLOR_0` is the combiner's result.
#[derive(Debug, Clone, PartialEq)]
pub struct Material {
    /// The base colour factor (RGBA).
    pub factor: [f32; 4],
    /// TEXEL0's colour is in the result (the texture's colour is written).
    pub texel_rgb: bool,
    /// TEXEL0's alpha is in the result.
    pub texel_alpha: bool,
    /// SHADE's colour is in the result (vertex colours are written).
    pub shade_rgb: bool,
    /// SHADE's alpha is in the result.
    pub shade_alpha: bool,
    /// What could not be expressed exactly (None: exact).
    pub approximated: Option<String>,
}

impl Material {
    /// What a display list draws before any G_SETCOMBINE: the texture times the shade, at full
    /// strength.
    pub const UNCOMBINED: Material = Material {
        factor: [1.0; 4],
        texel_rgb: true,
        texel_alpha: true,
        shade_rgb: true,
        shade_alpha: true,
        approximated: None,
    };
    /// The texture is drawn at all.
    pub fn texture(&self) -> bool {
        self.texel_rgb || self.texel_alpha
    }
    /// The vertex colours are drawn at all.
    pub fn shade(&self) -> bool {
        self.shade_rgb || self.shade_alpha
    }
    /// A hashable identity (the factor's bits), for grouping triangles by material.
    pub fn key(&self) -> ([u32; 4], [bool; 4]) {
        (self.factor.map(f32::to_bits), [self.texel_rgb, self.texel_alpha, self.shade_rgb, self.shade_alpha])
    }
}

/// Evaluate `combine` (in 2-cycle mode when `two_cycle`) with the constants `k`.
pub fn evaluate(combine: Combine, two_cycle: bool, k: &Constants) -> Material {
    let cycles = combine.cycles();
    let mut unknown: Vec<&'static str> = Vec::new();
    let mut inexact = false;
    let mut rgb: [Poly; 3] = [Poly::constant(0.0); 3];
    let mut alpha = Poly::constant(0.0);
    let n = if two_cycle { 2 } else { 1 };
    for (ci, cy) in cycles.iter().enumerate().take(n) {
        let first = ci == 0;
        let mut next_rgb = rgb;
        for (ch, out) in next_rgb.iter_mut().enumerate() {
            let x: [Poly; 4] = std::array::from_fn(|slot| {
                color_input(slot, cy.rgb[slot], ch, k, if first { None } else { Some(&rgb) }, &mut unknown)
            });
            *out = x[0].sub(x[1]).mul(x[2], &mut inexact).add(x[3]);
        }
        let x: [Poly; 4] = std::array::from_fn(|slot| {
            alpha_input(slot, cy.alpha[slot], k, if first { None } else { Some(&alpha) }, &mut unknown)
        });
        alpha = x[0].sub(x[1]).mul(x[2], &mut inexact).add(x[3]);
        rgb = next_rgb;
    }
    to_material(&rgb, &alpha, inexact, unknown)
}

/// Colour input `v` in slot `slot` (0 a, 1 b, 2 c, 3 d) for channel `ch`; `combined` is the
/// previous cycle's result (None in the first cycle, where COMBINED is undefined).
fn color_input(
    slot: usize,
    v: u8,
    ch: usize,
    k: &Constants,
    combined: Option<&[Poly; 3]>,
    unknown: &mut Vec<&'static str>,
) -> Poly {
    let zero = Poly::constant(0.0);
    let one = Poly::constant(1.0);
    let mut miss = |what: &'static str, p: Poly| {
        if !unknown.contains(&what) {
            unknown.push(what);
        }
        p
    };
    match (slot, v) {
        (_, 0) => match combined {
            Some(c) => c[ch],
            None => miss("COMBINED in the first cycle", zero),
        },
        (_, 1) => Poly::var(T),
        (_, 2) => miss("TEXEL1 (read as TEXEL0)", Poly::var(T)),
        (_, 3) => Poly::constant(k.prim[ch]),
        (_, 4) => Poly::var(S),
        (_, 5) => Poly::constant(k.env[ch]),
        (0, 6) | (3, 6) => one,
        (0, 7) => miss("NOISE (read as 0.5)", Poly::constant(0.5)),
        (1, 6) => miss("CENTER (read as 0)", zero),
        (1, 7) => miss("K4 (read as 0)", zero),
        (2, 6) => miss("SCALE (read as 1)", one),
        (2, 7) => match combined {
            Some(_) => miss("COMBINED_ALPHA (read as 1)", one),
            None => miss("COMBINED in the first cycle", zero),
        },
        (2, 8) => Poly::var(TA),
        (2, 9) => miss("TEXEL1_ALPHA (read as TEXEL0_ALPHA)", Poly::var(TA)),
        (2, 10) => Poly::constant(k.prim[3]),
        (2, 11) => Poly::var(SA),
        (2, 12) => Poly::constant(k.env[3]),
        (2, 13) => miss("LOD_FRACTION (read as 0)", zero),
        (2, 14) => miss("PRIM_LOD_FRAC (read as 0)", zero),
        (2, 15) => miss("K5 (read as 0)", zero),
        _ => zero,
    }
}

/// Alpha input `v` in slot `slot` (the c slot has its own list: LOD_FRACTION, PRIM_LOD_FRAC).
fn alpha_input(slot: usize, v: u8, k: &Constants, combined: Option<&Poly>, unknown: &mut Vec<&'static str>) -> Poly {
    let mut miss = |what: &'static str, p: Poly| {
        if !unknown.contains(&what) {
            unknown.push(what);
        }
        p
    };
    match (slot, v) {
        (2, 0) => miss("LOD_FRACTION (read as 0)", Poly::constant(0.0)),
        (_, 0) => match combined {
            Some(c) => *c,
            None => miss("COMBINED in the first cycle", Poly::constant(0.0)),
        },
        (_, 1) => Poly::var(TA),
        (_, 2) => miss("TEXEL1 (read as TEXEL0)", Poly::var(TA)),
        (_, 3) => Poly::constant(k.prim[3]),
        (_, 4) => Poly::var(SA),
        (_, 5) => Poly::constant(k.env[3]),
        (2, 6) => miss("PRIM_LOD_FRAC (read as 0)", Poly::constant(0.0)),
        (_, 6) => Poly::constant(1.0),
        _ => Poly::constant(0.0),
    }
}

/// The polynomials as a material: exact when the colour is one term of TEXEL0 and SHADE
/// (the same in the three channels) and the alpha one term of their alphas. Otherwise every
/// variable met is kept, the factor is the result with the variables at 1, and the material
/// says why it is approximate.
fn to_material(rgb: &[Poly; 3], alpha: &Poly, inexact: bool, mut why: Vec<&'static str>) -> Material {
    let mut exact = why.is_empty();
    if inexact {
        exact = false;
        why.push("a square (an input multiplied by itself)");
    }
    let mut factor = [0.0f32; 4];
    let mut vars = 0usize;
    let mut sum = false;
    let mut monos = Vec::new();
    for (ch, p) in rgb.iter().enumerate() {
        let terms: Vec<(usize, f32)> = p.terms().collect();
        sum |= terms.len() > 1;
        for &(m, kf) in &terms {
            if m & (TA | SA) as usize != 0 {
                exact = false;
                why.push("an alpha multiplies the colour");
            }
            vars |= m;
            monos.push(m);
            factor[ch] += kf;
        }
    }
    // One factor multiplies the three channels: they must agree on the monomial.
    sum |= monos.windows(2).any(|w| w[0] != w[1]);
    let aterms: Vec<(usize, f32)> = alpha.terms().collect();
    sum |= aterms.len() > 1;
    let mut avars = 0usize;
    for &(m, kf) in &aterms {
        avars |= m;
        factor[3] += kf;
    }
    if sum {
        exact = false;
        why.push("a sum of terms, not a product");
    }
    let factor = factor.map(|x| x.clamp(0.0, 1.0));
    why.dedup();
    Material {
        factor,
        texel_rgb: vars & T as usize != 0,
        texel_alpha: avars & TA as usize != 0,
        shade_rgb: vars & S as usize != 0,
        shade_alpha: avars & SA as usize != 0,
        approximated: (!exact).then(|| why.join(", ")),
    }
}

/// Whether the formula [`describe`] words names the environment colour (`ENVIRONMENT` or
/// `ENV_ALPHA`) and the primitive colour (`PRIMITIVE`, `PRIMITIVE_ALPHA`), found from the
/// selectors rather than the words (the notes need the words only when they are told).
pub fn reads_env_prim(combine: Combine) -> (bool, bool) {
    // Selector numbers, in the tables `describe` names them by.
    const ENVIRONMENT: u8 = 5;
    const ENV_ALPHA: u8 = 12;
    const PRIMITIVE: u8 = 3;
    const PRIMITIVE_ALPHA: u8 = 10;
    combine.cycles().iter().fold((false, false), |(env, prim), c| {
        let [a, b, m, d] = c.rgb;
        let picks = |colour: u8, alpha: u8| a == colour || b == colour || m == colour || m == alpha || d == colour;
        (env || picks(ENVIRONMENT, ENV_ALPHA), prim || picks(PRIMITIVE, PRIMITIVE_ALPHA))
    })
}

/// The combiner's formula in gbi.h's words, for notes: `(a - b) * c + d` per cycle.
pub fn describe(combine: Combine) -> String {
    const A: [&str; 8] = ["COMBINED", "TEXEL0", "TEXEL1", "PRIMITIVE", "SHADE", "ENVIRONMENT", "1", "NOISE"];
    const B: [&str; 8] = ["COMBINED", "TEXEL0", "TEXEL1", "PRIMITIVE", "SHADE", "ENVIRONMENT", "CENTER", "K4"];
    const C: [&str; 16] = [
        "COMBINED",
        "TEXEL0",
        "TEXEL1",
        "PRIMITIVE",
        "SHADE",
        "ENVIRONMENT",
        "SCALE",
        "COMBINED_ALPHA",
        "TEXEL0_ALPHA",
        "TEXEL1_ALPHA",
        "PRIMITIVE_ALPHA",
        "SHADE_ALPHA",
        "ENV_ALPHA",
        "LOD_FRACTION",
        "PRIM_LOD_FRAC",
        "K5",
    ];
    const D: [&str; 8] = ["COMBINED", "TEXEL0", "TEXEL1", "PRIMITIVE", "SHADE", "ENVIRONMENT", "1", "0"];
    let name = |t: &[&'static str], v: u8| t.get(v as usize).copied().unwrap_or("0");
    let [c0, c1] = combine.cycles();
    let one = |c: &Cycle| {
        format!("({} - {}) * {} + {}", name(&A, c.rgb[0]), name(&B, c.rgb[1]), name(&C, c.rgb[2]), name(&D, c.rgb[3]))
    };
    format!("{}; {}", one(&c0), one(&c1))
}

#[cfg(test)]
mod tests {
    use super::*;

    // gbi.h mux numbers.
    const COMBINED: u32 = 0;
    const TEXEL0: u32 = 1;
    const PRIMITIVE: u32 = 3;
    const SHADE: u32 = 4;
    const ENVIRONMENT: u32 = 5;
    const ONE: u32 = 6;
    const ZERO_A: u32 = 15;
    const ZERO_C: u32 = 31;
    const ZERO_D: u32 = 7;
    const K: Constants = Constants { prim: [1.0, 0.5, 0.25, 1.0], env: [0.1, 0.4, 0.2, 0.0] };

    /// The selectors say what the formula's words say, on 100,000 random combine word pairs
    /// (both answers met tens of thousands of times each).
    #[test]
    fn reads_env_prim_is_what_the_words_name() {
        let mut rng = boneyard_core::testdata::XorShift64(0xC0_3B1E);
        let (mut env, mut prim) = (0, 0);
        for _ in 0..100_000 {
            let r = rng.next_u64();
            let c = Combine { w0: 0xFC00_0000 | (r as u32 & 0x00FF_FFFF), w1: (r >> 32) as u32 };
            let words = describe(c);
            let want = (words.contains("ENVIRONMENT") || words.contains("ENV_ALPHA"), words.contains("PRIMITIVE"));
            assert_eq!(reads_env_prim(c), want, "{:08X} {:08X}: {words}", c.w0, c.w1);
            env += usize::from(want.0);
            prim += usize::from(want.1);
        }
        // Both kinds of answer were met many times.
        assert!(env > 10_000 && env < 90_000 && prim > 10_000 && prim < 90_000, "{env} {prim}");
    }

    #[test]
    fn link_tunic_combiner_is_texel0_shade_env() {
        // object_link_boy's tunic display lists: FC127EA0 FFFFF3F8, i.e.
        // (TEXEL0 - 0) * SHADE + 0, alpha TEXEL0; then (ENV - 0) * COMBINED + 0, alpha COMBINED.
        let c = Combine { w0: 0xFC12_7EA0, w1: 0xFFFF_F3F8 };
        let want = Combine::lerp(
            [TEXEL0, 15, SHADE, ZERO_D, 7, 7, 7, TEXEL0],
            [ENVIRONMENT, 15, COMBINED, ZERO_D, 7, 7, 7, COMBINED],
        );
        assert_eq!(c, want, "{:08X} {:08X}", want.w0, want.w1);
        let m = evaluate(c, true, &K);
        assert_eq!(m.approximated, None);
        assert!(m.texel_rgb && m.texel_alpha && m.shade_rgb && !m.shade_alpha);
        assert_eq!(m.factor, [0.1, 0.4, 0.2, 1.0]);
        // 1-cycle: the second cycle does not run.
        assert_eq!(evaluate(c, false, &K).factor, [1.0; 4]);
    }

    #[test]
    fn common_forms() {
        // TEXEL0 * PRIMITIVE (G_CC_MODULATEIDECALA_PRIM-like), both cycles the same.
        let c = [TEXEL0, ZERO_A, PRIMITIVE, ZERO_D, 7, 7, 7, TEXEL0];
        let m = evaluate(Combine::lerp(c, c), false, &K);
        assert_eq!((m.texture(), m.shade(), m.approximated.clone()), (true, false, None));
        assert_eq!(m.factor, [1.0, 0.5, 0.25, 1.0]);
        // PRIMITIVE alone.
        let c = [ZERO_A, ZERO_A, ZERO_C, PRIMITIVE, 7, 7, 7, PRIMITIVE];
        let m = evaluate(Combine::lerp(c, c), false, &K);
        assert_eq!((m.texture(), m.shade(), m.approximated.clone()), (false, false, None));
        assert_eq!(m.factor, [1.0, 0.5, 0.25, 1.0]);
        // G_CC_SHADE.
        let m = evaluate(Combine::SHADE, true, &K);
        assert_eq!((m.texture(), m.shade(), m.approximated.clone(), m.factor), (false, true, None, [1.0; 4]));
        // (TEXEL0 - ENV) * SHADE + ENV: a sum, approximated and said so.
        let c = [TEXEL0, ENVIRONMENT, SHADE, ENVIRONMENT, 7, 7, 7, ONE];
        let m = evaluate(Combine::lerp(c, c), false, &K);
        assert!(m.texture() && m.shade());
        assert!(m.approximated.is_some(), "{m:?}");
        assert_eq!(
            describe(Combine::lerp(c, c)),
            "(TEXEL0 - ENVIRONMENT) * SHADE + ENVIRONMENT; (TEXEL0 - ENVIRONMENT) * SHADE + ENVIRONMENT"
        );
    }
}
