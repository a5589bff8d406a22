// A lecture's playlist (app/model/playlist.h): read with the command line's own scenario parser, every line checked
// before any is taken, bounded in size, lines and words; what is wrong named by its line.
#include <gtest/gtest.h>

#include <cstddef>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "cli/arguments.h"
#include "model/playlist.h"

using namespace redlab;
using namespace redlab::model;

namespace {
std::string write_file(const std::string& name, const std::string& text) {
  const std::string path =
      (std::filesystem::temp_directory_path() / ("redlab_playlist_" + std::to_string(getpid()) + "_" + name)).string();
  std::ofstream(path, std::ios::binary) << text;
  return path;
}
std::string read(const std::string& text, Playlist& p) {
  return read_playlist(write_file("case.txt", text), cli::parse_scenario_words, p);
}
}  // namespace

TEST(Playlist, ReadsOneScenarioPerLineWithCommentsAndBlankLines) {
  Playlist p;
  ASSERT_EQ(read("# the reduction lecture\n"
                 "--kernel neighbored_modulo --n 256 --block 256 --input ones\n"
                 "\n"
                 "  --kernel neighbored_strided --n 2^10 --block 128   # bank conflicts\r\n"
                 "--kernel transpose_padded --rows 64 --cols 64\n",
                 p),
            "");
  ASSERT_EQ(p.entries.size(), 3u);
  EXPECT_EQ(p.entries[0].scenario.kernel, "neighbored_modulo");
  EXPECT_EQ(p.entries[0].scenario.input, InputKind::ones);
  EXPECT_EQ(p.entries[0].line, 2);
  EXPECT_EQ(p.entries[1].scenario.kernel, "neighbored_strided");
  EXPECT_EQ(p.entries[1].scenario.n, 1024u);
  EXPECT_EQ(p.entries[1].scenario.block, 128u);
  EXPECT_EQ(p.entries[1].line, 4);
  EXPECT_EQ(p.entries[1].text, "--kernel neighbored_strided --n 2^10 --block 128");
  EXPECT_EQ(p.entries[2].scenario.kernel, "transpose_padded");
  EXPECT_EQ(p.current, -1);
}

TEST(Playlist, AWrongLineIsNamedAndNothingIsTaken) {
  Playlist p;
  p.path = "kept";
  EXPECT_EQ(
      read("--kernel interleaved\n--kernel interleaved --n abc\n", p).rfind("line 2: --n: 'abc' is not a size", 0), 0u);
  EXPECT_EQ(p.path, "kept");  // the old playlist stays
  EXPECT_NE(read("--kernel no_such_kernel\n", p).find("line 1: --kernel: 'no_such_kernel' is not a kernel"),
            std::string::npos);
  EXPECT_NE(read("--n 256\n", p).find("line 1: no --kernel"), std::string::npos);
  EXPECT_NE(read("--kernel interleaved --screenshot x.png\n", p).find("line 1: "), std::string::npos);
  EXPECT_NE(read("--kernel interleaved --block 100\n", p).find("line 1: "), std::string::npos);
  EXPECT_NE(read("# only a comment\n\n", p).find("names no scenario"), std::string::npos);
  EXPECT_NE(read("", p).find("names no scenario"), std::string::npos);
  // -h in a line is a word the line does not take (it gave CLI11's "This should be caught in your main function").
  for (const char* help : {"--kernel interleaved -h\n", "--kernel interleaved --help\n"}) {
    const std::string why = read(help, p);
    EXPECT_NE(why.find("line 1: "), std::string::npos) << why;
    EXPECT_EQ(why.find("main function"), std::string::npos) << why;
    EXPECT_NE(why.find("-h"), std::string::npos) << why;
  }
}

TEST(Playlist, IsBoundedInSizeLinesAndWords) {
  Playlist p;
  EXPECT_NE(read(std::string(kPlaylistMaxBytes + 1, '#'), p).find("a playlist has at most 65536"), std::string::npos);
  std::string many;
  for (std::size_t i = 0; i <= kPlaylistMaxEntries; ++i) many += "--kernel interleaved\n";
  EXPECT_NE(read(many, p).find("line 201: more than 200 scenarios"), std::string::npos);
  std::string words = "--kernel interleaved";
  for (int i = 0; i < 40; ++i) words += " --input ones";
  EXPECT_NE(read(words + "\n", p).find("line 1: more than 40 words"), std::string::npos);
  // Not a regular file: a device or a pipe would not end (or would block).
  EXPECT_NE(read_playlist("/dev/zero", cli::parse_scenario_words, p).find("is not a file"), std::string::npos);
  EXPECT_NE(read_playlist(std::filesystem::temp_directory_path().string(), cli::parse_scenario_words, p)
                .find("is not a file"),
            std::string::npos);
  EXPECT_NE(read_playlist("/no/such/playlist", cli::parse_scenario_words, p).find("is not a file"), std::string::npos);
  // Control characters in what is echoed back are escaped.
  EXPECT_EQ(read("--kernel \x1b[31mred\n", p).find('\x1b'), std::string::npos);
}
