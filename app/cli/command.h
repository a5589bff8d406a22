// One subcommand of redlab: its name and options, each with its check, declared on its own CLI11 subcommand, and
// what it runs once they are read. Each lives in a file of app/cli/commands/ and registers itself there, once:
//
//   const CommandRegistration list_command{Order::list, [] { return std::unique_ptr<Command>(new ListCommand); }};
//
// `cli::run` (app.cpp) declares every registered command, parses the command line and runs the one chosen; it names
// none of them. Adding a command is its file (and its test).
#pragma once
#include <CLI/CLI.hpp>
#include <memory>
#include <string>
#include <vector>

#include "model/options.h"

namespace redlab::cli {

using GuiEntry = int (*)(const GuiOptions&);
// The font files the window draws with, one line each (`redlab --version -v`); nullptr in a build without a window.
using WindowFontsEntry = std::vector<std::string> (*)();

// What a command runs with besides its own options.
struct Invocation {
  int argc;
  char** argv;  // as typed: a kernel file's run hands them to the second redlab
  GuiEntry run_gui;  // the window; nullptr in a build without one
  const CLI::App& app;  // the whole command line (its help)
};

class Command {
 public:
  virtual ~Command() = default;
  // Adds the command (a subcommand of `parent`) with its options; returns it.
  virtual CLI::App* declare(CLI::App& parent) = 0;
  // Runs it: the exit code (0 done, 1 a wrong result or a failed check, 2 bad input or environment).
  virtual int run(const Invocation&) = 0;
};

// Where each command stands in `redlab --help` (and the man page): the order a newcomer meets them in.
enum class Order {
  gui = 10,
  list = 20,
  stats = 30,
  trace = 40,
  new_kernel = 50,
  bank = 60,
  bench = 70,
  lesson = 80,
  selftest = 90,
  internal = 100
};

using CommandFactory = std::unique_ptr<Command> (*)();
struct CommandRegistration {
  // `is_default`: the command run when none is named (the window).
  CommandRegistration(Order order, CommandFactory make, bool is_default = false);
};
struct RegisteredCommand {
  Order order;
  CommandFactory make;
  bool is_default;
};
// Every command registered, in their Order.
std::vector<RegisteredCommand> registered_commands();

// The checks more than one command declares, each written once. Each returns a CLI11 validator whose message is a
// whole sentence after the option's name ("--lang: 'fr' is not accepted; use en or zh_CN").
CLI::Validator language();  // en or zh_CN
CLI::Validator file_name();  // not empty
// Digits only, lo..hi; `what` names it in the message ("a step number").
CLI::Validator whole_number(long long lo, long long hi, const std::string& what = "a whole number");
CLI::Validator number_in(double lo, double hi, const std::string& what);  // "the seconds": a number, lo..hi

}  // namespace redlab::cli
