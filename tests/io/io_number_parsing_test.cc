// parse_unsigned's digit fast path (eight bytes at a time) against std::from_chars, the general
// path it must agree with: same status, same value, same end, for every token and every place
// of the token in the line (so both the 8-byte and the byte-by-byte loops are exercised).
#include <gtest/gtest.h>

#include <charconv>
#include <string>
#include <vector>

#include "core/random.h"
#include "io/text_parsing.h"

namespace gnnpart::io::detail {
namespace {

struct Reference {
  NumberStatus status;
  std::uint64_t value = 0;
  std::size_t length = 0;
};

// What parse_unsigned_token (std::from_chars plus the end and sign rules) makes of the token.
Reference reference(const std::string& text, std::size_t at, bool commas) {
  const char* p = text.data() + at;
  Reference r{};
  r.status = parse_unsigned_token(p, text.data() + text.size(), commas, r.value);
  r.length = static_cast<std::size_t>(p - (text.data() + at));
  return r;
}

void expect_same(const std::string& text, std::size_t at, bool commas) {
  const Reference want = reference(text, at, commas);
  const char* p = text.data() + at;
  std::uint64_t value = 0;
  const NumberStatus status = parse_unsigned(p, text.data() + text.size(), commas, value);
  ASSERT_EQ(status, want.status) << "'" << text << "' at " << at;
  EXPECT_EQ(static_cast<std::size_t>(p - (text.data() + at)), want.length) << text;
  if (status == NumberStatus::kOk) {
    EXPECT_EQ(value, want.value) << "'" << text << "' at " << at;
  }
}

TEST(IoNumberParsing, FastPathMatchesFromChars) {
  const std::vector<std::string> tokens = {"0",
                                           "7",
                                           "12",
                                           "1234567",
                                           "12345678",
                                           "123456789",
                                           "00000000",
                                           "000000001",
                                           "4294967295",
                                           "4294967296",
                                           "99999999",
                                           "100000000",
                                           "9999999999999999999",
                                           "10000000000000000000",
                                           "18446744073709551615",
                                           "18446744073709551616",
                                           "000000000000000000000000042",
                                           "-1",
                                           "-",
                                           "+5",
                                           "12x",
                                           "1.5",
                                           "x",
                                           "",
                                           "1\xfa",
                                           "1234567\xff",
                                           "123456789\xfe\x39",
                                           "12:3",
                                           "9/",
                                           "1,2",
                                           "12\r",
                                           "12\t",
                                           "5\n6",
                                           "0x10",
                                           "1e5"};
  const std::vector<std::string> befores = {"", " ", "1 2 3 ", "%"};
  const std::vector<std::string> afters = {"", " ", "\n", " 17 23 42 99\n", ",3", "\t\t8 9 10 11"};
  for (const std::string& token : tokens)
    for (const std::string& before : befores)
      for (const std::string& after : afters)
        for (bool commas : {false, true})
          expect_same(before + token + after, before.size(), commas);
}

TEST(IoNumberParsing, RandomBytesMatchFromChars) {
  Rng rng(20);
  const std::string alphabet = "0123456789 \n\t,-+x/:\xfa\xff";
  for (int trial = 0; trial < 20000; ++trial) {
    std::string text(1 + rng() % 30, ' ');
    for (char& c : text)
      c = rng() % 3 == 0 ? alphabet[rng() % alphabet.size()] : static_cast<char>('0' + rng() % 10);
    for (std::size_t at = 0; at < text.size(); ++at)
      expect_same(text, at, trial % 2 == 0);
  }
}

// The mask test of what may end a number agrees with the '\n' and separator tests it replaced,
// for every byte, with and without commas.
TEST(IoNumberParsing, TokenEndMaskMatchesSeparatorTests) {
  for (int b = 0; b < 256; ++b) {
    const char c = static_cast<char>(b);
    for (const bool commas : {false, true})
      EXPECT_EQ(ends_token(c, commas), c == '\n' || is_separator(c, commas))
          << "byte " << b << (commas ? " with commas" : "");
  }
}

} // namespace
} // namespace gnnpart::io::detail
