// gnnpart export LAYOUT_OR_PARTITION --to distdgl|pyg -o DIR: hands gnnpart's partition to
// DGL's distributed partitioning pipeline or to PyG's torch_geometric.distributed
// (docs/export.md). distdgl is written here (lib/export); pyg needs torch.save, so it runs the
// Python package: python3 -m gnnpart.export pyg LAYOUT DIR.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "command.h"
#include "core/errors.h"
#include "export/distdgl_export.h"
#include "export/export_source.h"

namespace gnnpart::app {
namespace {

struct ExportArgs {
  std::string source;
  std::string to;
  std::string output;
  std::string node_type = exporting::kDglHomogeneousNodeType;
  BlockID k = 0;
};

// Directories that may hold the package gnnpart: beside the binary in a build tree
// (build/python), under the install prefix (bin/../<site dir>), then PYTHONPATH's.
std::string python_path() {
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  std::string path;
#ifdef GNNPART_PYTHON_SITE_DIR
  if (!ec) {
    path = (exe.parent_path() / "python").string() + ":" +
           (exe.parent_path().parent_path() / GNNPART_PYTHON_SITE_DIR).string();
  }
#endif
  if (const char* existing = std::getenv("PYTHONPATH"); existing && *existing)
    path += std::string(path.empty() ? "" : ":") + existing;
  return path;
}

int run_pyg_export(const ExportArgs& args, const GlobalFlags& global) {
#ifndef GNNPART_PYTHON_EXECUTABLE
  throw Unsupported("--to pyg needs the Python package gnnpart (torch.save), and this gnnpart was "
                    "built without pybind11; use python3 -m gnnpart.export");
#else
  if (!exporting::is_layout_directory(args.source))
    throw InvalidParameter(fmt::format(
        "{}: --to pyg needs a layout directory (gnnpart partition GRAPH -k K --layout DIR, or "
        "gnnpart layout GRAPH PARTITION -o DIR): a partition file has no edges",
        args.source));
  std::fflush(stdout);
  const pid_t child = fork();
  if (child < 0)
    throw SystemError("cannot start python3 for --to pyg");
  if (child == 0) {
    const std::string path = python_path();
    setenv("PYTHONPATH", path.c_str(), 1);
    std::vector<std::string> argv = {GNNPART_PYTHON_EXECUTABLE, "-m", "gnnpart.export", "pyg",
                                     args.source, args.output};
    if (global.quiet)
      argv.push_back("--quiet");
    std::vector<char*> raw;
    for (std::string& a : argv)
      raw.push_back(a.data());
    raw.push_back(nullptr);
    execv(raw[0], raw.data());
    std::fprintf(stderr, "gnnpart: error: cannot run %s\n", raw[0]);
    _exit(1);
  }
  int status = 0;
  if (waitpid(child, &status, 0) < 0)
    throw SystemError("lost the python3 process of --to pyg");
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
#endif
}

int run_export(const ExportArgs& args, const GlobalFlags& global) {
  if (args.to == "pyg")
    return run_pyg_export(args, global);
  const Partition partition = exporting::read_assignment(args.source, args.k);
  exporting::write_distdgl_partition(partition, args.output, args.node_type);
  if (!global.quiet)
    std::printf("gnnpart: %s -> %s: %zu nodes of type %s in %u parts (DGL's dispatch_data.py "
                "--partitions-dir %s)\n",
                args.source.c_str(), args.output.c_str(), partition.blocks.size(),
                args.node_type.c_str(), partition.k, args.output.c_str());
  return 0;
}

CommandRunner setup_export(CLI::App& parent, const GlobalFlags& global) {
  auto args = std::make_shared<ExportArgs>();
  CLI::App* cmd = parent.add_subcommand(
      "export", "write a partition for DistDGL's pipeline or PyG's distributed training");
  cmd->footer(R"(Examples:
  gnnpart export cora.part.4 --to distdgl -o cora-dgl       # _N.txt + partition_meta.json
  gnnpart export cora-4 --to pyg -o cora-pyg                # layout dir -> torch.save files
Formats and the upstream readers they satisfy: docs/export.md)");
  cmd->add_option("SOURCE", args->source,
                  "layout directory (layout.json) or partition file (one block id per line)")
      ->required();
  cmd->add_option("--to", args->to, "distdgl or pyg")
      ->required()
      ->check(CLI::IsMember({"distdgl", "pyg"}));
  cmd->add_option("-o,--output", args->output, "output directory")->required();
  cmd->add_option("-k,--k", args->k, "blocks of a partition file (default: largest id + 1)")
      ->check(CLI::Range(1u, 1u << 30));
  cmd->add_option("--node-type", args->node_type,
                  "distdgl: node type of the assignment file (homogeneous graphs: _N)")
      ->capture_default_str();
  return [args, &global] { return run_export(*args, global); };
}

const RegisterCommand kRegister("export", 65, setup_export);

} // namespace
} // namespace gnnpart::app
