//! Command-line arguments (cli.md). clap prints usage errors itself and exits with 2.

use clap::{Parser, Subcommand, ValueEnum};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Debug, Parser)]
#[command(
    name = "boneyard",
    version,
    about = "Read the skeletons and animations of classic games (Oni, Zelda 64, Shenmue) exactly as their engines play them, and export them to glTF, BVH, OBJ, PNG, GIF and APNG."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
    /// In a ROM or archive, read only the file of this name (as `info` prints it). Not for
    /// import or demo.
    #[arg(long = "file", global = true, value_name = "NAME")]
    pub pick: Option<String>,
    /// Run-time state the game sets before drawing: Link's tunic colour (Zelda 64), one of
    /// kokiri (the default), goron, zora. Not for import or demo.
    #[arg(long, global = true, value_name = "NAME")]
    pub tunic: Option<String>,
    /// Run-time state: the shield on Link's back (Zelda 64), one of none, deku, hylian, mirror
    /// (default: the one he first carries at his age, deku as a child, hylian as an adult).
    /// Not for import or demo.
    #[arg(long, global = true, value_name = "NAME")]
    pub shield: Option<String>,
    /// No progress bar and no summary: warnings and errors only.
    #[arg(short, long, global = true, conflicts_with = "verbose")]
    pub quiet: bool,
    /// Every warning (not the first 8 of a document), each file a folder walk does not read
    /// with why, and each output file named as it is written (without it, they are listed at
    /// the end; -q lists none).
    #[arg(short, long, global = true)]
    pub verbose: bool,
}

impl Cli {
    /// The run-time state options as the neutral key/value pairs families interpret.
    pub fn runtime_state(&self) -> Vec<(String, String)> {
        let tunic = self.tunic.iter().map(|t| ("tunic".to_string(), t.clone()));
        tunic.chain(self.shield.iter().map(|t| ("shield".to_string(), t.clone()))).collect()
    }
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// What each file is: format, version/variant, counts.
    Info {
        /// Game files, ROMs, containers or folders (files of one game given together are one
        /// document; a folder's files are each their own).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Machine-readable output.
        #[arg(long)]
        json: bool,
    },
    /// Every skeleton and animation found in the files.
    List {
        /// Game files, ROMs, containers or folders (files of one game given together are one
        /// document; a folder's files are each their own).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Machine-readable output (`{"files", "skeletons", "animations"}`).
        #[arg(long)]
        json: bool,
    },
    /// The local pose at frame F: engine-native channel values and local transforms.
    Sample {
        /// Game files, ROMs, containers or folders (files of one game given together are one
        /// document; a folder's files are each their own).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Animation name (as `list` prints it) or index (`#242`).
        #[arg(long)]
        anim: String,
        /// Frame number (a real number; engines that sample whole frames say how they round;
        /// default 0).
        #[arg(long, allow_hyphen_values = true)]
        frame: Option<f64>,
        /// Machine-readable output (the engine-native channels and the local transforms).
        #[arg(long)]
        json: bool,
    },
    /// World matrices per bone at frame F, as the engine computes them.
    Pose {
        /// Game files, ROMs, containers or folders (files of one game given together are one
        /// document; a folder's files are each their own).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Animation name or `#index`; without it, the rest pose.
        #[arg(long)]
        anim: Option<String>,
        /// Frame number of the `--anim` clip (a real number; default 0).
        #[arg(long, allow_hyphen_values = true, conflicts_with = "all_frames")]
        frame: Option<f64>,
        /// Every frame of the `--anim` clip (0..frames-1) in one output.
        #[arg(long)]
        all_frames: bool,
        /// Skeleton id, name or `#index` (default: the animation's own, else the first).
        #[arg(long)]
        skeleton: Option<String>,
        /// Machine-readable output (per bone: index, name, parent, column-major matrix).
        #[arg(long)]
        json: bool,
    },
    /// Export skeletons, meshes and animations.
    Export {
        /// Game files, ROMs, containers or folders (files of one game given together are one
        /// document; a folder's files are each their own).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Animations to export (repeatable; default: every animation of the skeleton).
        #[arg(long)]
        anim: Vec<String>,
        /// Skeleton id, name or `#index` (default: every skeleton, one output each).
        #[arg(long)]
        skeleton: Option<String>,
        /// Output format (any case).
        #[arg(short, long, value_enum, ignore_case = true)]
        format: Format,
        /// Output folder (nothing is written outside it).
        #[arg(short, long)]
        out: PathBuf,
        /// Frame of the `--anim` clip for still formats (png, obj; default 0). Without `--anim`
        /// an obj is the rest pose (and `--frame` a usage error), and a png this frame of the clip the skeleton is best seen
        /// in (its plainest walk that moves; said in a note), or its rest pose when it has none.
        #[arg(long, allow_hyphen_values = true)]
        frame: Option<f64>,
        /// Remove root motion (the character animates in place; glb, bvh).
        #[arg(long)]
        in_place: bool,
        /// Keys per engine frame for the clips the engine evaluates between frames (glb, bvh):
        /// Shenmue's motions and Zelda 64's curve and Majora's Mask keyframe clips, whose curves
        /// one key a frame would cut straight between frames; key k is the engine's pose at frame
        /// k/N (`pose --frame` gives the same). Clips the engine holds frame by frame (Oni, Zelda
        /// 64's normal and Link clips) are exact at every time with one key a frame and keep it.
        /// From 1 (the default) to 64.
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=64))]
        subframes: Option<u32>,
        /// Image size for png/gif/apng, WIDTHxHEIGHT (default 480x480).
        #[arg(long)]
        size: Option<String>,
        /// Multiply every length by F (glb, bvh, obj): e.g. 0.00025 for adult Link in metres
        /// (1.6 m: `info` has him 6,522 units tall at frame 0 of his walk, hat and sword
        /// included, drawn at 1/100 in the game; `info` prints each model's height standing, at frame 0 of the clip
        /// it is best seen in, and at rest, in engine units); from 1e-9 to 1e9.
        #[arg(long, value_name = "F", allow_hyphen_values = true)]
        scale: Option<String>,
    },
    /// Walk every animation; print a line each and a hash.
    Check {
        /// Game files, ROMs, containers or folders (files of one game given together are one
        /// document; a folder's files are each their own).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// `{"lines": [...], "hash": "...", "warnings": [...]}`.
        #[arg(long)]
        json: bool,
    },
    /// Write glTF clips back in the game's own format (Oni: a TRAM .oni per clip).
    Import(ImportArgs),
    /// Local web viewer on http://127.0.0.1:P.
    View {
        /// Game files, ROMs, containers or folders (files of one game given together are one
        /// document; a folder's files are each their own).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Port (0 picks a free one).
        #[arg(long, default_value_t = 8642)]
        port: u16,
    },
    /// The whole pipeline on built-in sample data.
    Demo {
        /// Output folder.
        #[arg(short, long, default_value = "boneyard-demo")]
        out: PathBuf,
    },
}

/// `boneyard import GLTF... --into FILE... --out DIR`.
#[derive(Debug, clap::Args)]
pub struct ImportArgs {
    /// glTF 2.0 files (.glb or .gltf) whose animations are written back.
    #[arg(required = true, value_name = "GLTF")]
    pub gltf: Vec<PathBuf>,
    /// The game files whose skeleton is the target (Oni: a TRBS or ONCC .oni, or a level;
    /// TRAMs given with them can be `--like`).
    #[arg(long, required = true, num_args = 1.., value_name = "FILE")]
    pub into: Vec<PathBuf>,
    /// glTF animations to import, by name or `#N` (repeatable; default: all).
    #[arg(long)]
    pub anim: Vec<String>,
    /// The skeleton of the --into files (id, name or `#index`; default: the one the glTF was
    /// exported from, else the one whose bones its nodes name most).
    #[arg(long)]
    pub skeleton: Option<String>,
    /// Bone map for other rigs: a JSON object {"gltf bone": "game bone", ...}.
    #[arg(long, value_name = "MAP.json")]
    pub map: Option<PathBuf>,
    /// `{"written": [...], "warnings": [...]}` on stdout.
    #[arg(long)]
    pub json: bool,
    /// Output folder (nothing is written outside it).
    #[arg(short, long)]
    pub out: PathBuf,
    /// Replace files of the same names already in --out (an earlier import's). Without it, an
    /// import that would replace one writes nothing and names them.
    #[arg(long)]
    pub force: bool,
    /// Oni rotation keys: 6 bytes (Euler angles, the default) or 16 (quaternions).
    #[arg(long, value_name = "6|16", value_parser = clap::builder::PossibleValuesParser::new(["6", "16"]))]
    pub oni_keys: Option<String>,
    /// Largest error left where keys are dropped: radians (or e.g. `0.02deg`) for rotations;
    /// Shenmue also bounds positions with it, in metres (defaults: Oni 0.0003, Shenmue 0.0005).
    #[arg(long, value_name = "ANGLE")]
    pub tolerance: Option<String>,
    /// An animation of the --into files whose other fields (type, states, attacks, sounds...)
    /// are copied.
    #[arg(long, value_name = "ANIM")]
    pub like: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// glTF 2.0 binary: the skeleton, its meshes and textures, every clip (`gltf` too: one
    /// .glb file, which every glTF importer reads).
    #[value(alias = "gltf")]
    Glb,
    /// BioVision hierarchy: the skeleton and one clip a file.
    Bvh,
    /// Wavefront OBJ: the meshes posed at `--frame`.
    Obj,
    /// A still picture at `--frame`.
    Png,
    /// An animated PNG of each clip.
    Apng,
    /// An animated GIF of each clip.
    Gif,
}

impl Format {
    /// The format's name as `--format` takes it.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Glb => "glb",
            Format::Bvh => "bvh",
            Format::Obj => "obj",
            Format::Png => "png",
            Format::Apng => "apng",
            Format::Gif => "gif",
        }
    }
}

/// A usage error found after parsing (exit status 2).
#[derive(Debug)]
pub struct UsageError(pub String);

impl std::fmt::Display for UsageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}
impl std::error::Error for UsageError {}

pub fn usage(msg: impl Into<String>) -> anyhow::Error {
    anyhow::Error::new(UsageError(msg.into()))
}

/// Parse argv; on `--help`/`--version` print and exit 0, on errors print usage and exit 2.
pub fn parse() -> Result<Cli, ExitCode> {
    match Cli::try_parse() {
        Ok(c) => Ok(c),
        Err(e) => {
            if e.use_stderr() {
                // The parser's own messages begin `error:`; every other message of boneyard
                // begins `boneyard: `, so that a script (or a reader of a log) can tell whose it is.
                eprint!("boneyard: {}", e.render());
                Err(ExitCode::from(2))
            } else {
                let _ = e.print();
                Err(ExitCode::from(0))
            }
        }
    }
}

pub fn parse_size(s: &str) -> anyhow::Result<(u32, u32)> {
    let (w, h) = s.split_once(['x', 'X']).ok_or_else(|| usage(format!("--size {s:?}: expected WIDTHxHEIGHT")))?;
    let parse = |v: &str| {
        v.trim()
            .parse::<u32>()
            .ok()
            .filter(|&n| (16..=4096).contains(&n))
            .ok_or_else(|| usage(format!("--size {s:?}: each side must be 16..4096")))
    };
    Ok((parse(w)?, parse(h)?))
}
