//! The 37-control human runtime rig (controller family 0) and its solvers.
//!
//! MOTN ids of the human family address these controls, not MT5 nodes. The constants
//! (parents, types, solver class/subtype, default positions, default rotations in int16
//! turns) are the game's rig as the reference publishes it (RAM 0x8CC05820, 72-byte
//! records). Evaluation, as the game does it (reference §3):
//! 1. every control starts at its default position/rotation; sampled curves overwrite the
//!    axes they drive (rotations stored as `int16(trunc(turns × 65536))`);
//! 2. local = T(position) · Rz · Ry · Rx (column vectors: X applied first), world = parent · local;
//! 3. depth-first from the root, a class-2/subtype-2 control solves its two-bone limb
//!    analytically toward its class-4 target, and a class-2/subtype-1 control of type 1
//!    (torso) or 4 (neck/head) aims its one bone at its target; the solved matrices replace
//!    the FK ones of the chain (target included), so feet and hands inherit the limb's
//!    orientation plus their own rotation.
//!
//! IK targets hold absolute positions in rig space. Nothing is clamped: no limb stretching,
//! no knee limits. Arithmetic is single precision (the SH-4's).

use crate::curve::raw_to_radians;
use glam::{Mat4, Vec3};

/// Number of controls of the human runtime rig.
pub const CONTROLS: usize = 37;

/// One control record of the rig.
#[derive(Debug, Clone, Copy)]
pub struct ControlDef {
    /// The control's name (boneyard's, after the body part it moves).
    pub name: &'static str,
    /// Index of its parent control.
    pub parent: Option<usize>,
    /// The executable's stable controller type byte (curves of other families bind by it).
    pub ty: u8,
    /// Solver class (2: a limb solved toward a target, 4: an IK target...; see the module docs).
    pub class: u8,
    /// Solver subtype within the class.
    pub subtype: u8,
    /// Default position, relative to the parent.
    pub position: [f32; 3],
    /// Default rotation, int16 turns (65536 a turn).
    pub rotation: [i16; 3],
}

const fn c(
    name: &'static str,
    parent: i32,
    ty: u8,
    class: u8,
    subtype: u8,
    position: [f32; 3],
    rotation: [i16; 3],
) -> ControlDef {
    ControlDef {
        name,
        parent: if parent < 0 { None } else { Some(parent as usize) },
        ty,
        class,
        subtype,
        position,
        rotation,
    }
}

/// The human rig. Sides ("R"/"L") come from the geometry of the game's own data: the walk
/// travels toward -Z with the knees bending and the head looking that way, so the
/// character's right is +X; leg A (4-10) hangs at +X (right, as ShenmueDK labels it) but arm A
/// (25-30) sits at -X, so it is the *left* arm (ShenmueDK labels arm A right). Control 2's default rotation is the quarter turn the game's Ryo
/// controller holds for the fixed pelvis endpoint (the published table omits it).
pub static HUMAN_RIG: [ControlDef; CONTROLS] = [
    c("root", -1, 0x00, 6, 0, [0.0, 1.150_399_9, 0.0], [0, 0, 0]),
    c("hip", 0, 0x13, 2, 1, [0.0, 0.0, 0.0], [0, 0, 16384]),
    c("pelvis", 1, 0x14, 3, 1, [0.0, 0.0, 0.0], [0, 0, -16384]),
    c("pelvis_end", 2, 0x15, 4, 0, [0.251_261_98, 0.0, 0.0], [0, 0, 0]),
    c("R_leg_mount", 3, 0x1d, 0, 0, [-0.109_731, 0.0, 0.055_835], [0, 0, 0]),
    c("R_leg_ik", 4, 0x1e, 2, 2, [0.049_936, 0.0, 0.035_837], [0, 0, 0]),
    c("R_thigh", 5, 0x1f, 3, 1, [0.0, 0.0, 0.0], [0, 0, -16383]),
    c("R_shin", 6, 0x20, 3, 1, [0.392_728_98, 0.0, 0.0], [0, 0, 0]),
    c("R_foot_target", 7, 0x21, 4, 0, [0.444_607_97, 0.0, 0.0], [0, 0, 0]),
    c("R_foot", 8, 0x22, 1, 0, [0.0, 0.0, 0.0], [0, 0, 0]),
    c("R_toe", 9, 0x23, 1, 0, [-0.000_001, -0.088_24, -0.115_665], [0, 0, 0]),
    c("L_leg_mount", 3, 0x16, 0, 0, [-0.109_732, 0.0, -0.055_837], [0, 0, 0]),
    c("L_leg_ik", 11, 0x17, 2, 2, [0.049_937, 0.0, -0.035_835], [0, 0, 0]),
    c("L_thigh", 12, 0x18, 3, 1, [0.0, 0.0, 0.0], [0, 0, -16329]),
    c("L_shin", 13, 0x19, 3, 1, [0.392_728_98, 0.0, 0.0], [0, 0, -102]),
    c("L_foot_target", 14, 0x1a, 4, 0, [0.444_623_98, 0.0, 0.0], [0, 0, 0]),
    c("L_foot", 15, 0x1b, 1, 0, [0.0, 0.0, 0.0], [0, 0, 0]),
    c("L_toe", 16, 0x1c, 1, 0, [0.0, -0.088_24, -0.115_665], [0, 0, 0]),
    c("torso", 0, 0x01, 2, 1, [0.0, 0.0, 0.0], [0, 0, 16384]),
    c("spine", 18, 0x02, 3, 0, [0.0, 0.0, 0.0], [0, 0, 16384]),
    c("torso_target", 19, 0x03, 4, 0, [0.380_851_98, 0.0, 0.0], [0, 0, 0]),
    c("neck_root", 20, 0x04, 2, 1, [0.0, 0.000_001, 0.000_001], [-32768, 0, -16384]),
    c("neck", 21, 0x05, 3, 0, [0.0, 0.0, 0.0], [0, 0, 16384]),
    c("head_target", 22, 0x06, 4, 0, [0.209_385, 0.0, 0.0], [0, 0, 0]),
    c("head", 22, 0x2f, 1, 0, [0.0, 0.0, 0.0], [0, 0, 0]),
    c("L_shoulder", 20, 0x07, 0, 0, [-0.125_631, 0.0, -0.055_834], [0, 0, 0]),
    c("L_arm_ik", 25, 0x08, 2, 2, [0.016_951, 0.0, -0.168_59], [0, 0, 0]),
    c("L_upper_arm", 26, 0x09, 3, 1, [0.0, 0.0, 0.0], [0, 0, -16384]),
    c("L_forearm", 27, 0x0a, 3, 0, [0.242_53, 0.0, 0.0], [0, 0, 0]),
    c("L_hand_target", 28, 0x0b, 4, 0, [0.250_657_98, 0.0, 0.0], [0, 0, 0]),
    c("L_hand", 29, 0x0c, 1, 0, [0.0, 0.0, 0.0], [0, 0, 0]),
    c("R_shoulder", 20, 0x0d, 0, 0, [-0.125_632, 0.0, 0.055_838], [0, 0, 0]),
    c("R_arm_ik", 31, 0x0e, 2, 2, [0.016_945, 0.0, 0.168_566], [0, 0, 0]),
    c("R_upper_arm", 32, 0x0f, 3, 1, [0.0, 0.0, 0.0], [0, 0, -16451]),
    c("R_forearm", 33, 0x10, 3, 0, [0.242_525, 0.0, 0.0], [0, 0, 133]),
    c("R_hand_target", 34, 0x11, 4, 0, [0.250_664_98, 0.0, 0.0], [0, 0, 0]),
    c("R_hand", 35, 0x12, 1, 0, [0.0, 0.0, 0.0], [0, 0, 0]),
];

/// The live state of every control for one frame.
#[derive(Debug, Clone, PartialEq)]
pub struct Controls {
    /// Per control, its position (defaults overwritten by the curves).
    pub position: Vec<Vec3>,
    /// Per control, its rotation in int16 turns.
    pub rotation: Vec<[i16; 3]>,
}

impl Controls {
    /// The rig's defaults.
    pub fn defaults(rig: &[ControlDef]) -> Self {
        Controls {
            position: rig.iter().map(|c| Vec3::from(c.position)).collect(),
            rotation: rig.iter().map(|c| c.rotation).collect(),
        }
    }
}

/// `T(position) · Rz · Ry · Rx` from raw int16 turns.
pub fn local_matrix(position: Vec3, rotation: [i16; 3]) -> Mat4 {
    let [x, y, z] = rotation.map(raw_to_radians);
    Mat4::from_translation(position) * Mat4::from_rotation_z(z) * Mat4::from_rotation_y(y) * Mat4::from_rotation_x(x)
}

/// The result of evaluating the rig for one frame.
#[derive(Debug, Clone)]
pub struct Evaluated {
    /// Per control, its world matrix after the solvers.
    pub world: Vec<Mat4>,
    /// Solver calls that hit a degenerate case (target on the root, pole parallel to the aim)
    /// and used the fallback axes documented at [`aim_frame`].
    pub degenerate: u32,
}

/// Below this length the pole's part perpendicular to the aim is noise (the pole is
/// parallel to the aim), and the frame would not be orthonormal in single precision.
const MIN_POLE: f32 = 1e-4;

// glam's `length`, `normalize` and `normalize_or` with the processor's square root (glam's
// `libm` feature sends it out of line to libm's software `sqrtf`; this was the solvers' hottest
// call): the same bits, shared in core (which tests them against glam).
use boneyard_core::ieee::{length, normalize, normalize_or};

/// X = `direction`, Z = the parent's Z axis made perpendicular to it, Y = Z × X, at `origin`.
/// Fallbacks (the game would divide by zero or by noise here): a zero direction takes the
/// parent's X axis; a pole (nearly) parallel to the direction takes the parent's Y axis.
/// The projection is applied twice, which leaves a well-conditioned result unchanged (the
/// second pass removes only rounding) and keeps the frame orthonormal when the pole is close
/// to the aim. Returns the frame and whether a fallback was used.
pub fn aim_frame(parent: &Mat4, direction: Vec3, origin: Vec3) -> (Mat4, bool) {
    let mut degenerate = false;
    let mut d = normalize_or(direction, Vec3::ZERO);
    if d == Vec3::ZERO {
        d = normalize_or(parent.x_axis.truncate(), Vec3::X);
        degenerate = true;
    }
    let project = |v: Vec3| v - d * v.dot(d);
    let pole = parent.z_axis.truncate();
    let mut z = project(pole);
    if length(z) < MIN_POLE {
        z = project(parent.y_axis.truncate());
        if length(z) < MIN_POLE {
            z = d.any_orthonormal_vector();
        }
        degenerate = true;
    }
    let z = normalize(project(normalize(z)));
    let y = normalize_or(z.cross(d), Vec3::ZERO);
    (Mat4::from_cols(d.extend(0.0), y.extend(0.0), z.extend(0.0), origin.extend(1.0)), degenerate)
}

/// Matrices of a two-bone solve.
#[derive(Debug, Clone, Copy)]
pub struct TwoBone {
    /// The upper bone's world matrix (thigh, upper arm).
    pub upper: Mat4,
    /// The lower bone's world matrix (shin, forearm).
    pub lower: Mat4,
    /// The end effector's world matrix (at the target).
    pub target: Mat4,
    /// True when the solve hit a degenerate case and used the fallback axes.
    pub degenerate: bool,
}

/// The analytic two-bone solver: root at `parent`'s origin, pole from its Z axis.
/// `bend_subtype` is the lower joint's subtype: 0 bends along target × pole, else pole × target.
pub fn solve_two_bone(parent: &Mat4, target: Vec3, upper_len: f32, lower_len: f32, bend_subtype: u8) -> TwoBone {
    let root = parent.w_axis.truncate();
    let delta = target - root;
    let dist = length(delta);
    let (basis, mut degenerate) = aim_frame(parent, delta, root);
    let dir = basis.x_axis.truncate();
    let normal = basis.z_axis.truncate();
    let along = if dist > 0.0 {
        ((upper_len * upper_len + dist * dist - lower_len * lower_len) / (2.0 * dist)).clamp(-upper_len, upper_len)
    } else {
        degenerate = true;
        upper_len
    };
    let height = (upper_len * upper_len - along * along).max(0.0).sqrt();
    let bend = if bend_subtype == 0 { dir.cross(normal) } else { normal.cross(dir) };
    let joint = root + dir * along + bend * height;
    let frame = |d: Vec3, at: Vec3| -> (Mat4, bool) {
        let d = normalize_or(d, Vec3::ZERO);
        if d == Vec3::ZERO {
            return (Mat4::from_cols(basis.x_axis, basis.y_axis, basis.z_axis, at.extend(1.0)), true);
        }
        let y = normalize_or(normal.cross(d), Vec3::ZERO);
        (Mat4::from_cols(d.extend(0.0), y.extend(0.0), normal.extend(0.0), at.extend(1.0)), false)
    };
    let (upper, d1) = frame(joint - root, root);
    let (lower, d2) = frame(target - joint, joint);
    let target_m = Mat4::from_cols(lower.x_axis, lower.y_axis, lower.z_axis, target.extend(1.0));
    TwoBone { upper, lower, target: target_m, degenerate: degenerate || d1 || d2 }
}

/// The aimed one-bone solver: X at the target, the endpoint `length` along X.
pub fn solve_one_bone(parent: &Mat4, aim: Vec3, length: f32) -> (Mat4, Mat4, bool) {
    let root = parent.w_axis.truncate();
    let (upper, degenerate) = aim_frame(parent, aim - root, root);
    let end = root + upper.x_axis.truncate() * length;
    let target = Mat4::from_cols(upper.x_axis, upper.y_axis, upper.z_axis, end.extend(1.0));
    (upper, target, degenerate)
}

#[cfg(test)]
fn children(rig: &[ControlDef], i: usize) -> impl Iterator<Item = usize> + '_ {
    rig.iter().enumerate().filter(move |(_, c)| c.parent == Some(i)).map(|(j, _)| j)
}

/// What a control solves when it is visited.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Solver {
    None,
    /// Aimed one bone: the bone and its class-4 target.
    OneBone {
        upper: usize,
        target: usize,
    },
    /// Two bones: the upper bone, the lower bone and the target.
    TwoBone {
        upper: usize,
        lower: usize,
        target: usize,
    },
}

/// A rig's evaluation order and solvers, worked out once: the depth-first visiting order
/// (children in index order), each control's solver with its chain, which controls a
/// solver places (they take no FK matrix of their own) and every control's local matrix at
/// its defaults. [`RigPlan::evaluate_into`] then evaluates a frame without allocating.
#[derive(Debug, Clone)]
pub struct RigPlan {
    order: Vec<usize>,
    parent: Vec<Option<usize>>,
    solver: Vec<Solver>,
    /// Placed by an ancestor's solver (always: the chains are fixed by the rig).
    solved: Vec<bool>,
    default_position: Vec<Vec3>,
    default_rotation: Vec<[i16; 3]>,
    /// `local_matrix` of the defaults, used whenever a control holds its defaults (bit for bit).
    default_local: Vec<Mat4>,
    /// The length the solvers read from the chain's records (`position[0]`).
    length: Vec<f32>,
    subtype: Vec<u8>,
}

impl RigPlan {
    /// The plan of `rig` (any rig; [`evaluate`]'s order is depth-first from the roots).
    pub fn new(rig: &[ControlDef]) -> Self {
        let n = rig.len();
        let mut kids: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (j, c) in rig.iter().enumerate() {
            if let Some(p) = c.parent.filter(|&p| p < n) {
                kids[p].push(j);
            }
        }
        let mut order = Vec::with_capacity(n);
        let mut stack: Vec<usize> =
            rig.iter().enumerate().rev().filter(|(_, c)| c.parent.is_none()).map(|(i, _)| i).collect();
        while let Some(i) = stack.pop() {
            order.push(i);
            stack.extend(kids[i].iter().rev());
        }
        let mut solver = vec![Solver::None; n];
        let mut solved = vec![false; n];
        for (i, def) in rig.iter().enumerate() {
            let first = |k: usize| kids[k].first().copied();
            if def.class == 2 && def.subtype == 1 && (def.ty == 0x01 || def.ty == 0x04) {
                if let Some(upper) = first(i) {
                    if let Some(&target) = kids[upper].iter().find(|&&t| rig[t].class == 4) {
                        solver[i] = Solver::OneBone { upper, target };
                    }
                }
            } else if def.class == 2 && def.subtype == 2 {
                let upper = first(i);
                let lower = upper.and_then(first);
                let target = lower.and_then(first);
                if let (Some(upper), Some(lower), Some(target)) = (upper, lower, target) {
                    solver[i] = Solver::TwoBone { upper, lower, target };
                }
            }
        }
        // A solver places controls visited after it (its descendants; a control has one
        // parent, so each is visited once, after its parent), so a control is already placed
        // when visited exactly when some solver places it.
        for s in &solver {
            match *s {
                Solver::None => {}
                Solver::OneBone { upper, target } => {
                    solved[upper] = true;
                    solved[target] = true;
                }
                Solver::TwoBone { upper, lower, target } => {
                    solved[upper] = true;
                    solved[lower] = true;
                    solved[target] = true;
                }
            }
        }
        RigPlan {
            order,
            parent: rig.iter().map(|c| c.parent).collect(),
            solver,
            solved,
            default_position: rig.iter().map(|c| Vec3::from(c.position)).collect(),
            default_rotation: rig.iter().map(|c| c.rotation).collect(),
            default_local: rig.iter().map(|c| local_matrix(Vec3::from(c.position), c.rotation)).collect(),
            length: rig.iter().map(|c| c.position[0]).collect(),
            subtype: rig.iter().map(|c| c.subtype).collect(),
        }
    }

    /// The plan of [`HUMAN_RIG`], built once.
    pub fn human() -> &'static RigPlan {
        static PLAN: std::sync::OnceLock<RigPlan> = std::sync::OnceLock::new();
        PLAN.get_or_init(|| RigPlan::new(&HUMAN_RIG))
    }

    /// The chain control `i` solves when it is visited, as (upper, lower, target): `lower` is
    /// `None` for an aimed one-bone control. `None` when `i` solves nothing.
    pub fn chain(&self, i: usize) -> Option<(usize, Option<usize>, usize)> {
        match self.solver.get(i)? {
            Solver::None => None,
            Solver::OneBone { upper, target } => Some((*upper, None, *target)),
            Solver::TwoBone { upper, lower, target } => Some((*upper, Some(*lower), *target)),
        }
    }

    /// Is control `i` placed by a solver (so its own rotation and position are not read)?
    pub fn is_solved(&self, i: usize) -> bool {
        self.solved.get(i).copied().unwrap_or(false)
    }

    /// Number of controls.
    pub fn len(&self) -> usize {
        self.parent.len()
    }

    /// [`evaluate`] into `world` (one matrix per control, resized to the rig), returning the
    /// degenerate solver calls. Same arithmetic, same order, same matrices bit for bit; no
    /// allocation once `world` has the rig's length.
    pub fn evaluate_into(&self, controls: &Controls, world: &mut Vec<Mat4>) -> u32 {
        let n = self.len();
        world.clear();
        world.resize(n, Mat4::IDENTITY);
        let pos = |i: usize| controls.position.get(i).copied().unwrap_or(self.default_position[i]);
        let mut degenerate = 0u32;
        for &i in &self.order {
            if !self.solved[i] {
                let p = pos(i);
                let r = controls.rotation.get(i).copied().unwrap_or(self.default_rotation[i]);
                let d = self.default_position[i];
                let local = if r == self.default_rotation[i]
                    && p.x.to_bits() == d.x.to_bits()
                    && p.y.to_bits() == d.y.to_bits()
                    && p.z.to_bits() == d.z.to_bits()
                {
                    self.default_local[i]
                } else {
                    local_matrix(p, r)
                };
                let parent = self.parent[i].map_or(Mat4::IDENTITY, |p| world[p]);
                world[i] = parent * local;
            }
            let w = world[i];
            match self.solver[i] {
                Solver::None => {}
                Solver::OneBone { upper, target } => {
                    let (u, t, d) = solve_one_bone(&w, pos(target), self.length[target]);
                    world[upper] = u;
                    world[target] = t;
                    degenerate += u32::from(d);
                }
                Solver::TwoBone { upper, lower, target } => {
                    let s =
                        solve_two_bone(&w, pos(target), self.length[lower], self.length[target], self.subtype[lower]);
                    world[upper] = s.upper;
                    world[lower] = s.lower;
                    world[target] = s.target;
                    degenerate += u32::from(s.degenerate);
                }
            }
        }
        degenerate
    }
}

/// Evaluate the human rig: world matrices of all controls (see the module comment).
/// `rig` must be parents-first (the human rig is).
pub fn evaluate(rig: &[ControlDef], controls: &Controls) -> Evaluated {
    let own;
    let plan = if std::ptr::eq(rig, &HUMAN_RIG[..]) {
        RigPlan::human()
    } else {
        own = RigPlan::new(rig);
        &own
    };
    let mut world = Vec::with_capacity(rig.len());
    let degenerate = plan.evaluate_into(controls, &mut world);
    Evaluated { world, degenerate }
}

/// The walk [`RigPlan`] replaces, kept to test it against: depth-first with an explicit
/// stack, children found by scanning the rig.
#[cfg(test)]
fn evaluate_walk(rig: &[ControlDef], controls: &Controls) -> Evaluated {
    let n = rig.len();
    let mut world: Vec<Option<Mat4>> = vec![None; n];
    let mut degenerate = 0u32;
    // Depth-first, children in index order, with an explicit stack (no recursion).
    let mut stack: Vec<(usize, Mat4)> = Vec::with_capacity(n);
    for (i, c) in rig.iter().enumerate().rev() {
        if c.parent.is_none() {
            stack.push((i, Mat4::IDENTITY));
        }
    }
    while let Some((i, parent)) = stack.pop() {
        let def = &rig[i];
        let pos = controls.position.get(i).copied().unwrap_or(Vec3::from(def.position));
        let rot = controls.rotation.get(i).copied().unwrap_or(def.rotation);
        let w = *world[i].get_or_insert_with(|| parent * local_matrix(pos, rot));
        if def.class == 2 && def.subtype == 1 && (def.ty == 0x01 || def.ty == 0x04) {
            if let Some(upper) = children(rig, i).next() {
                if let Some(target) = children(rig, upper).find(|&t| rig[t].class == 4) {
                    let aim = controls.position.get(target).copied().unwrap_or(Vec3::from(rig[target].position));
                    let (u, t, d) = solve_one_bone(&w, aim, rig[target].position[0]);
                    world[upper] = Some(u);
                    world[target] = Some(t);
                    degenerate += u32::from(d);
                }
            }
        } else if def.class == 2 && def.subtype == 2 {
            let upper = children(rig, i).next();
            let lower = upper.and_then(|u| children(rig, u).next());
            let target = lower.and_then(|l| children(rig, l).next());
            if let (Some(u), Some(l), Some(t)) = (upper, lower, target) {
                let goal = controls.position.get(t).copied().unwrap_or(Vec3::from(rig[t].position));
                let s = solve_two_bone(&w, goal, rig[l].position[0], rig[t].position[0], rig[l].subtype);
                world[u] = Some(s.upper);
                world[l] = Some(s.lower);
                world[t] = Some(s.target);
                degenerate += u32::from(s.degenerate);
            }
        }
        let kids: Vec<usize> = children(rig, i).collect();
        for &k in kids.iter().rev() {
            stack.push((k, w));
        }
    }
    Evaluated { world: world.into_iter().map(|m| m.unwrap_or(Mat4::IDENTITY)).collect(), degenerate }
}

/// The rest pose as a plain FK chain of the defaults (IK targets at their default local
/// offsets), used as the skeleton's bind pose.
pub fn rest_world(rig: &[ControlDef]) -> Vec<Mat4> {
    let mut out: Vec<Mat4> = Vec::with_capacity(rig.len());
    for c in rig {
        let local = local_matrix(Vec3::from(c.position), c.rotation);
        let m = match c.parent.and_then(|p| out.get(p)) {
            Some(p) => *p * local,
            None => local,
        };
        out.push(m);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rig_is_parents_first_with_the_published_lengths() {
        for (i, c) in HUMAN_RIG.iter().enumerate() {
            assert!(c.parent.is_none_or(|p| p < i), "control {i}");
        }
        assert_eq!(HUMAN_RIG[7].position[0], 0.392_728_98);
        assert_eq!(HUMAN_RIG[8].position[0], 0.444_607_97);
        assert_eq!(HUMAN_RIG[20].position[0], 0.380_851_98);
        assert_eq!(HUMAN_RIG[23].position[0], 0.209_385);
        assert_eq!(HUMAN_RIG[28].position[0], 0.242_53);
        assert_eq!(HUMAN_RIG[29].position[0], 0.250_657_98);
        // Two-bone roots, targets, aimed roots.
        for i in [5, 12, 26, 32] {
            assert_eq!((HUMAN_RIG[i].class, HUMAN_RIG[i].subtype), (2, 2));
        }
        for i in [8, 15, 20, 23, 29, 35] {
            assert_eq!(HUMAN_RIG[i].class, 4);
        }
    }

    #[test]
    fn two_bone_by_hand() {
        // Root at the origin, identity parent (pole = +Z), target 5 units along +X with
        // bones 3 and 4: a 3-4-5 triangle. along = (9 + 25 - 16)/10 = 1.8, h = 2.4.
        // Subtype 0 bends along target × pole = X × Z = -Y.
        let s = solve_two_bone(&Mat4::IDENTITY, Vec3::new(5.0, 0.0, 0.0), 3.0, 4.0, 0);
        let knee = s.lower.w_axis.truncate();
        assert!((knee - Vec3::new(1.8, -2.4, 0.0)).length() < 1e-6, "{knee}");
        let s1 = solve_two_bone(&Mat4::IDENTITY, Vec3::new(5.0, 0.0, 0.0), 3.0, 4.0, 1);
        assert!((s1.lower.w_axis.truncate() - Vec3::new(1.8, 2.4, 0.0)).length() < 1e-6);
        // Frames are orthonormal, Z = the pole, X along each bone, the target on the goal.
        assert!((s.upper.z_axis.truncate() - Vec3::Z).length() < 1e-6);
        assert!((s.upper.x_axis.truncate() - Vec3::new(0.6, -0.8, 0.0)).length() < 1e-6);
        assert!((s.target.w_axis.truncate() - Vec3::new(5.0, 0.0, 0.0)).length() < 1e-6);
        assert!(!s.degenerate);
        // Out of reach: no clamping of the target, the limb points straight at it.
        let far = solve_two_bone(&Mat4::IDENTITY, Vec3::new(10.0, 0.0, 0.0), 3.0, 4.0, 0);
        assert!((far.lower.w_axis.truncate() - Vec3::new(3.0, 0.0, 0.0)).length() < 1e-6);
        assert!((far.target.w_axis.truncate() - Vec3::new(10.0, 0.0, 0.0)).length() < 1e-6);
    }

    #[test]
    fn one_bone_aims_and_places_the_endpoint() {
        let (u, t, d) = solve_one_bone(&Mat4::IDENTITY, Vec3::new(0.0, 2.0, 0.0), 0.5);
        assert!(!d);
        assert!((u.x_axis.truncate() - Vec3::Y).length() < 1e-6);
        assert!((t.w_axis.truncate() - Vec3::new(0.0, 0.5, 0.0)).length() < 1e-6);
        // Degenerate: aim at the root itself.
        let (_, t, d) = solve_one_bone(&Mat4::IDENTITY, Vec3::ZERO, 0.5);
        assert!(d && t.is_finite());
    }

    proptest::proptest! {
        /// The planned evaluation gives the walk's matrices and degenerate count bit for bit.
        #[test]
        fn plan_matches_the_walk(
            moves in proptest::collection::vec((0usize..CONTROLS, -1.0f32..1.0, -1.0f32..1.0, -1.0f32..1.0, proptest::prelude::any::<[i16; 3]>()), 0..40),
            zero in proptest::prelude::any::<bool>(),
        ) {
            let mut c = Controls::defaults(&HUMAN_RIG);
            for &(i, x, y, z, r) in &moves {
                c.position[i] = Vec3::new(x, y, z);
                c.rotation[i] = r;
            }
            if zero {
                // Targets on their roots: the degenerate paths.
                c.position[8] = Vec3::ZERO;
                c.position[20] = Vec3::ZERO;
            }
            let want = evaluate_walk(&HUMAN_RIG, &c);
            let got = evaluate(&HUMAN_RIG, &c);
            proptest::prop_assert_eq!(want.degenerate, got.degenerate);
            let bits = |w: &[Mat4]| w.iter().flat_map(|m| m.to_cols_array()).map(f32::to_bits).collect::<Vec<_>>();
            proptest::prop_assert_eq!(bits(&want.world), bits(&got.world));
            // A rig that is not the static one takes a plan of its own.
            let copy = HUMAN_RIG.to_vec();
            proptest::prop_assert_eq!(bits(&want.world), bits(&evaluate(&copy, &c).world));
        }
    }

    #[test]
    fn local_matrix_applies_x_then_y_then_z() {
        // A quarter turn about X then a quarter about Z: +Y → +Z (X) → +Z (Z leaves it).
        let m = local_matrix(Vec3::ZERO, [16384, 0, 16384]);
        let v = m.transform_vector3(Vec3::Y);
        assert!((v - Vec3::Z).length() < 1e-6, "{v}");
        // +Z → -Y (X) → +X (Z: -Y rotated a quarter about Z is +X).
        let v = m.transform_vector3(Vec3::Z);
        assert!((v - Vec3::X).length() < 1e-6, "{v}");
    }
}
