#pragma once
// Each subcommand lives in its own app/cmd_<name>.cc and registers itself here, so commands
// can be added without touching main.cc. A command's setup function adds its CLI11 subcommand
// and returns the function to run when it is chosen (exit code out).
#include <functional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace gnnpart::app {

struct GlobalFlags {
  bool quiet = false;
  int verbosity = 0;  // -v count
};

using CommandRunner = std::function<int()>;
using CommandSetup = std::function<CommandRunner(CLI::App& parent, const GlobalFlags& flags)>;

struct CommandEntry {
  std::string name;
  int order;  // position in --help
  CommandSetup setup;
};

std::vector<CommandEntry>& command_registry();

struct RegisterCommand {
  RegisterCommand(std::string name, int order, CommandSetup setup) {
    command_registry().push_back({std::move(name), order, std::move(setup)});
  }
};

}  // namespace gnnpart::app
