#include "cpp_only.h"
#include "bignat.h"

#include <algorithm>

namespace idseq {

BigNat::BigNat(uint64_t v)
{
    while (v) {
        limbs_.push_back(static_cast<uint32_t>(v));
        v >>= 32;
    }
}

void BigNat::trim()
{
    while (!limbs_.empty() && limbs_.back() == 0)
        limbs_.pop_back();
}

void BigNat::mul_add(uint32_t m, uint32_t a)
{
    uint64_t carry = a;
    for (uint32_t& l : limbs_) {
        uint64_t t = static_cast<uint64_t>(l) * m + carry;
        l = static_cast<uint32_t>(t);
        carry = t >> 32;
    }
    if (carry)
        limbs_.push_back(static_cast<uint32_t>(carry));
    trim();
}

uint32_t BigNat::divmod(uint32_t d)
{
    uint64_t rem = 0;
    for (size_t i = limbs_.size(); i-- > 0;) {
        uint64_t cur = (rem << 32) | limbs_[i];
        limbs_[i] = static_cast<uint32_t>(cur / d);
        rem = cur % d;
    }
    trim();
    return static_cast<uint32_t>(rem);
}

void BigNat::add(const BigNat& o)
{
    if (limbs_.size() < o.limbs_.size())
        limbs_.resize(o.limbs_.size(), 0);
    uint64_t carry = 0;
    for (size_t i = 0; i < limbs_.size(); i++) {
        uint64_t t = static_cast<uint64_t>(limbs_[i]) + (i < o.limbs_.size() ? o.limbs_[i] : 0) + carry;
        limbs_[i] = static_cast<uint32_t>(t);
        carry = t >> 32;
    }
    if (carry)
        limbs_.push_back(static_cast<uint32_t>(carry));
}

void BigNat::sub(const BigNat& o)
{
    int64_t borrow = 0;
    for (size_t i = 0; i < limbs_.size(); i++) {
        int64_t t = static_cast<int64_t>(limbs_[i]) - (i < o.limbs_.size() ? o.limbs_[i] : 0) - borrow;
        borrow = t < 0;
        limbs_[i] = static_cast<uint32_t>(t + (borrow << 32));
    }
    trim();
}

int BigNat::compare(const BigNat& o) const
{
    if (limbs_.size() != o.limbs_.size())
        return limbs_.size() < o.limbs_.size() ? -1 : 1;
    for (size_t i = limbs_.size(); i-- > 0;)
        if (limbs_[i] != o.limbs_[i])
            return limbs_[i] < o.limbs_[i] ? -1 : 1;
    return 0;
}

std::string BigNat::to_decimal() const
{
    if (is_zero())
        return "0";
    BigNat t = *this;
    std::string out;
    while (!t.is_zero()) {
        uint32_t chunk = t.divmod(1000000000u);
        for (int i = 0; i < 9; i++) {
            out.push_back(static_cast<char>('0' + chunk % 10));
            chunk /= 10;
            if (t.is_zero() && chunk == 0)
                break;
        }
    }
    std::reverse(out.begin(), out.end());
    return out;
}

bool BigNat::from_decimal(std::string_view s, BigNat& out)
{
    out = BigNat();
    size_t i = 0;
    if (s.empty() || s[0] < '0' || s[0] > '9')
        return false;
    for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; i++)
        out.mul_add(10, static_cast<uint32_t>(s[i] - '0'));
    if (i < s.size()) {
        if (s[i] != '.')
            return false;
        for (i++; i < s.size(); i++)
            if (s[i] != '0')
                return false;
    }
    return true;
}

} // namespace idseq
