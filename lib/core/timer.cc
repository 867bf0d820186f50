#include "core/timer.h"

#include <fmt/format.h>

#include "core/errors.h"

namespace gnnpart {

Timer::Timer() : nodes_(1) {}

void Timer::start(std::string_view name) {
  int child = -1;
  for (int c : nodes_[current_].children) {
    if (nodes_[c].name == name) {
      child = c;
      break;
    }
  }
  if (child < 0) {
    child = static_cast<int>(nodes_.size());
    Node node;
    node.name = std::string(name);
    node.parent = current_;
    nodes_.push_back(std::move(node));
    nodes_[current_].children.push_back(child);
  }
  current_ = child;
  ++nodes_[child].count;
  nodes_[child].started = Clock::now();
  report();
}

void Timer::stop() {
  if (current_ == 0)
    throw InvalidParameter("Timer::stop() without a running phase");
  Node& node = nodes_[current_];
  node.seconds += std::chrono::duration<double>(Clock::now() - node.started).count();
  current_ = node.parent;
  report();
}

void Timer::detail(std::string_view text) { report(text); }

void report_level(Timer* timer, std::size_t level, std::size_t levels, std::uint64_t vertices) {
  if (timer != nullptr)
    timer->detail(fmt::format("level {} of {}, {} vertices", level, levels, vertices));
}

std::string Timer::running_path() const {
  std::string path;
  for (int node = current_; node > 0; node = nodes_[node].parent)
    path = path.empty() ? nodes_[node].name : nodes_[node].name + "/" + path;
  return path;
}

void Timer::report(std::string_view detail) {
  if (status_ == nullptr)
    return;
  std::string text = running_path();
  if (!detail.empty())
    text += fmt::format(": {}", detail);
  status_->set(std::move(text));
}

int Timer::find(std::string_view path) const {
  int node = 0;
  while (!path.empty()) {
    const std::size_t slash = path.find('/');
    const std::string_view name = path.substr(0, slash);
    int next = -1;
    for (int c : nodes_[node].children) {
      if (nodes_[c].name == name) {
        next = c;
        break;
      }
    }
    if (next < 0)
      return -1;
    node = next;
    path = slash == std::string_view::npos ? std::string_view{} : path.substr(slash + 1);
  }
  return node;
}

double Timer::seconds(std::string_view path) const {
  const int node = find(path);
  return node <= 0 ? 0.0 : nodes_[node].seconds;
}

std::uint64_t Timer::count(std::string_view path) const {
  const int node = find(path);
  return node <= 0 ? 0 : nodes_[node].count;
}

int Timer::depth() const {
  int depth = 0;
  for (int node = current_; node != 0; node = nodes_[node].parent)
    ++depth;
  return depth;
}

void Timer::append(std::string& out, int node, int depth) const {
  const Node& n = nodes_[node];
  out += fmt::format("{:{}}{}: {:.3f} s", "", 2 * depth, n.name, n.seconds);
  if (n.count > 1)
    out += fmt::format(" (x{})", n.count);
  out += '\n';
  for (int c : n.children)
    append(out, c, depth + 1);
}

std::string Timer::to_string() const {
  std::string out;
  for (int c : nodes_[0].children)
    append(out, c, 0);
  return out;
}

void log_phases(const Logger& logger, const Timer& timer) {
  std::string tree = timer.to_string();
  if (!tree.empty() && tree.back() == '\n')
    tree.pop_back();
  logger.info("phases (wall seconds, x runs):\n{}", tree);
}

void Timer::print(std::FILE* out) const {
  fmt::print(out, "{}", to_string());
}

} // namespace gnnpart
