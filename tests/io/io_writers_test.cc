// Every writer round-trips through its reader; outputs appear atomically or not at all.
#include <sys/resource.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "core/graph_builder.h"
#include "io/graph_io.h"
#include "io/input_buffer.h"
#include "io/output_file.h"
#include "io/text_input.h"
#include "io_test_util.h"

namespace gnnpart::io {
namespace {

using testing::expect_same_graph;
using testing::fixture;
using testing::ScratchDir;
using testing::tiny_graph;

TEST(IoWriters, MetisRoundTripKeepsAllWeights) {
  ScratchDir dir;
  for (const bool ew : {false, true})
    for (const bool vw : {false, true}) {
      const CsrGraph g = tiny_graph(ew, vw);
      write_metis(g, dir.file("t.graph"));
      expect_same_graph(read_graph(dir.file("t.graph")), g);
    }
  EXPECT_EQ(testing::read_text(dir.file("t.graph")).substr(0, 9), "8 8 11\n1 ");
}

TEST(IoWriters, MetisRoundTripMultiConstraint) {
  ScratchDir dir;
  const CsrGraph g = read_graph(fixture("tiny/tiny_ncon2.graph"));
  write_graph(g, dir.file("t.metis.gz"));
  expect_same_graph(read_graph(dir.file("t.metis.gz")), g);
}

TEST(IoWriters, EdgeListRoundTripKeepsIsolatedVertices) {
  ScratchDir dir;
  for (const bool ew : {false, true}) {
    const CsrGraph g = tiny_graph(ew);
    write_edge_list(g, dir.file("t.el"));
    expect_same_graph(read_graph(dir.file("t.el")), g);
  }
  const std::string text = testing::read_text(dir.file("t.el"));
  EXPECT_EQ(text.substr(0, 30), "# vertices: 8\n# edges: 8\n0 1 2");
}

TEST(IoWriters, MatrixMarketRoundTrip) {
  ScratchDir dir;
  for (const bool ew : {false, true}) {
    const CsrGraph g = tiny_graph(ew);
    write_matrix_market(g, dir.file("t.mtx"));
    expect_same_graph(read_graph(dir.file("t.mtx")), g);
  }
}

TEST(IoWriters, HmetisRoundTrip) {
  ScratchDir dir;
  const Hypergraph h = read_hmetis(fixture("tiny/tiny_weighted.hgr"));
  write_hmetis(h, dir.file("t.hgr"));
  const Hypergraph back = read_hmetis(dir.file("t.hgr"));
  ASSERT_EQ(back.num_nets(), h.num_nets());
  ASSERT_EQ(back.num_nodes(), h.num_nodes());
  for (NetID e = 0; e < h.num_nets(); ++e) {
    EXPECT_EQ(back.net_weight(e), h.net_weight(e));
    EXPECT_EQ(std::vector<NodeID>(back.pins(e).begin(), back.pins(e).end()),
              std::vector<NodeID>(h.pins(e).begin(), h.pins(e).end()));
  }
  for (NodeID u = 0; u < h.num_nodes(); ++u)
    EXPECT_EQ(back.vertex_weight(u), h.vertex_weight(u));
}

TEST(IoWriters, ColumnNetMatchesTheFixtureFromEvalpart) {
  ScratchDir dir;
  write_column_net_hmetis(tiny_graph(), dir.file("cn.hgr"));
  EXPECT_EQ(testing::read_text(dir.file("cn.hgr")), testing::read_text(fixture("tiny/tiny.hgr")));
}

// Byte-identical to evalpart --write-hgr on a real graph, compressed output included.
TEST(IoWriters, ColumnNetMatchesEvalpartOnCora) {
  const std::string evalpart = EVALPART_BINARY;
  if (evalpart.empty())
    FAIL() << "evalpart was not built: ../shared/tools/evalpart is required beside the project";
  ScratchDir dir;
  const std::string graph = testing::shared_dataset("cora.edges.gz");
  const std::string command = evalpart + " --n 2708 " + graph + " --write-metis " +
                              dir.file("ev.graph") + " --write-hgr " + dir.file("ev.hgr") + " > " +
                              dir.file("ev.json");
  ASSERT_EQ(std::system(command.c_str()), 0) << command;
  const CsrGraph g = read_graph(graph);
  write_column_net_hmetis(g, dir.file("ours.hgr.gz"));
  const InputBuffer ours(dir.file("ours.hgr.gz"));
  EXPECT_TRUE(ours.compressed());
  EXPECT_TRUE(ours.data() == testing::read_text(dir.file("ev.hgr")));
  // evalpart's METIS file reads back as the same graph.
  testing::expect_same_structure(read_graph(dir.file("ev.graph")), g);
}

// The METIS reader gives each parsed chunk's pages of the mapped file back (drop_pages): the
// bytes read again afterwards are the same, the graph is complete, and an error found after the
// parse (a list that is not symmetric, checked on the arrays) still names its line.
TEST(IoWriters, DroppedPagesReadTheSameBytes) {
  const ScratchDir dir;
  const NodeID n = 30000; // a cycle: about 300 KB of text, many pages and chunks
  std::string text = std::to_string(n) + " " + std::to_string(n) + "\n";
  for (NodeID u = 0; u < n; ++u)
    text += std::to_string((u + n - 1) % n + 1) + " " + std::to_string((u + 1) % n + 1) + "\n";
  const std::string path = dir.file("cycle.graph");
  testing::write_text(path, text);
  const InputBuffer in(path);
  const std::string before(in.data());
  in.drop_pages(0, in.size());
  in.drop_pages(5, 3); // an empty range
  EXPECT_TRUE(in.data() == before);
  const CsrGraph g = read_graph(path);
  ASSERT_EQ(g.num_nodes(), n);
  ASSERT_EQ(g.num_edges(), EdgeID{n});
  for (NodeID u = 0; u < n; ++u) {
    const auto nb = g.neighbors(u);
    ASSERT_EQ(nb.size(), 2u);
    EXPECT_EQ(std::min(nb[0], nb[1]), std::min((u + n - 1) % n, (u + 1) % n)) << u;
    EXPECT_EQ(std::max(nb[0], nb[1]), std::max((u + n - 1) % n, (u + 1) % n)) << u;
  }
  // Vertex 29990 (line 29992) lists 29992 instead of 29991; 29991 does not list it back.
  std::string bad = text;
  const std::string row = "29990 29992\n";
  const std::size_t at = bad.find("\n" + row) + 1;
  bad.replace(at, row.size(), "29990 29993\n");
  const std::string bad_path = dir.file("bad.graph");
  testing::write_text(bad_path, bad);
  testing::expect_input_error([&] { read_graph(bad_path); }, bad_path + ":29992:");
}

// A file that the first read (kSniffBytes and a byte-order mark) takes whole is kept from that
// read; a byte more and it is mapped. Both hold the file's bytes, the mark dropped.
TEST(IoWriters, FilesAroundTheFirstReadReadTheSameBytes) {
  const ScratchDir dir;
  for (const std::size_t size :
       {std::size_t{4}, kSniffBytes + 2, kSniffBytes + 3, kSniffBytes + 4, 3 * kSniffBytes}) {
    SCOPED_TRACE(size);
    std::string text(kUtf8Bom);
    for (std::size_t i = 0; text.size() < size; ++i)
      text.push_back(i % 61 == 60 ? '\n' : static_cast<char>('a' + i % 26));
    const std::string path = dir.file("t" + std::to_string(size) + ".txt");
    testing::write_text(path, text);
    const InputBuffer in(path);
    EXPECT_EQ(in.file_size(), size);
    EXPECT_TRUE(in.data() == std::string_view(text).substr(3));
    in.drop_pages(0, in.size());
    EXPECT_TRUE(in.data() == std::string_view(text).substr(3));
  }
}

TEST(IoWriters, GzipOutputIsRecognisedByMagicNotName) {
  ScratchDir dir;
  write_edge_list(tiny_graph(), dir.file("t.el.gz"));
  std::filesystem::rename(dir.file("t.el.gz"), dir.file("renamed.el"));
  expect_same_graph(read_graph(dir.file("renamed.el")), tiny_graph());
}

TEST(IoWriters, WriteGraphDispatchesByExtension) {
  ScratchDir dir;
  const CsrGraph g = tiny_graph(true, true);
  for (const std::string name : {"a.graph", "a.gnnp", "a.mtx.gz", "a.edges"}) {
    write_graph(g, dir.file(name));
    const CsrGraph back = read_graph(dir.file(name));
    testing::expect_same_structure(back, g);
    EXPECT_TRUE(back.has_edge_weights()) << name;
  }
  write_graph(g, dir.file("b.hgr"));
  EXPECT_EQ(read_hmetis(dir.file("b.hgr")).num_nets(), 8u);
  EXPECT_THROW(write_graph(g, dir.file("a.unknown")), InputError);
  EXPECT_FALSE(std::filesystem::exists(dir.file("a.unknown")));
}

TEST(IoWriters, MissingDirectoryFailsWithoutLeftovers) {
  ScratchDir dir;
  const std::string path = dir.file("no/such/dir/t.graph");
  EXPECT_THROW(write_metis(tiny_graph(), path), SystemError);
  EXPECT_THROW(write_partition(Partition{2, {0, 1}}, dir.file("nodir/p.part.2")), SystemError);
  EXPECT_TRUE(dir.entries().empty());
}

TEST(IoWriters, ExceptionMidWriteRemovesTheTemporaryFile) {
  ScratchDir dir;
  const std::string path = dir.file("out.txt.gz");
  try {
    OutputFile out(path);
    out.write(std::string(1 << 20, 'x'));
    EXPECT_EQ(dir.entries().size(), 1u); // the temporary file exists while writing
    EXPECT_NE(out.temp_path(), path);
    throw std::runtime_error("simulated failure");
  } catch (const std::runtime_error&) {
  }
  EXPECT_TRUE(dir.entries().empty());
  {
    OutputFile out(path);
    out.write("hello\n");
    out.commit();
  }
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"out.txt.gz"});
  EXPECT_TRUE(InputBuffer(path).data() == "hello\n");
}

TEST(IoWriters, FailedRewriteKeepsTheOldFile) {
  ScratchDir dir;
  const std::string path = dir.file("t.graph");
  write_metis(tiny_graph(), path);
  const std::string before = testing::read_text(path);
  try {
    OutputFile out(path);
    out.write("garbage");
    throw std::runtime_error("simulated failure");
  } catch (const std::runtime_error&) {
  }
  EXPECT_EQ(testing::read_text(path), before);
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"t.graph"});
}

// Replacing a file swaps the new one in and removes the old (RENAME_EXCHANGE where the file
// system has it, output_file.cc): the path holds the new bytes, nothing else is left in the
// directory, and another hard link to the old file keeps the old bytes, as with a rename.
TEST(IoWriters, RewriteReplacesTheFileAndLeavesNothingElse) {
  ScratchDir dir;
  const std::string path = dir.file("p.part");
  for (const std::string text : {"old\n", "new\n", "newer and longer\n"}) {
    OutputFile out(path);
    out.write(text);
    out.commit();
    EXPECT_EQ(testing::read_text(path), text);
    EXPECT_EQ(dir.entries(), std::vector<std::string>{"p.part"});
  }
  ASSERT_EQ(::link(path.c_str(), dir.file("other").c_str()), 0);
  {
    OutputFile out(path);
    out.write("replaced\n");
    out.commit();
  }
  EXPECT_EQ(testing::read_text(path), "replaced\n");
  EXPECT_EQ(testing::read_text(dir.file("other")), "newer and longer\n");
  EXPECT_EQ(dir.entries(), (std::vector<std::string>{"other", "p.part"}));
}

// A real write error half-way (file size limit, SIGXFSZ ignored): SystemError and nothing left
// behind. Only the soft limit is lowered, and both are restored afterwards.
TEST(IoWriters, WriteErrorMidFileLeavesNothing) {
  ScratchDir dir;
  std::vector<EdgeID> offsets(20001);
  std::vector<NodeID> adjacency;
  for (NodeID u = 0; u < 20000; ++u) {
    offsets[u] = adjacency.size();
    if (u > 0)
      adjacency.push_back(u - 1);
    if (u + 1 < 20000)
      adjacency.push_back(u + 1);
  }
  offsets[20000] = adjacency.size();
  const CsrGraph path_graph(std::move(offsets), std::move(adjacency));
  struct rlimit saved {};
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &saved), 0);
  auto* const saved_handler = std::signal(SIGXFSZ, SIG_IGN);
  struct rlimit limited = saved;
  limited.rlim_cur = 4096;
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &limited), 0);
  bool system_error = false;
  try {
    write_metis(path_graph, dir.file("big.graph"));
  } catch (const SystemError& e) {
    system_error = std::string(e.what()).find("write failed") != std::string::npos;
  }
  ::setrlimit(RLIMIT_FSIZE, &saved);
  std::signal(SIGXFSZ, saved_handler);
  EXPECT_TRUE(system_error);
  EXPECT_TRUE(dir.entries().empty());
}

} // namespace
} // namespace gnnpart::io
