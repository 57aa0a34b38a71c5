// Numeric constants from the DWARF 5 standard (section 7), with the GNU and Apple
// extensions that appear in real dSYMs. Kept as plain integers so the hot decoding
// loops can switch on them without conversions.

/// DWARF tag numbers (`DW_TAG_*`) that the symbolicator looks at.
public enum DWARFTag {
    /// `DW_TAG_lexical_block`.
    public static let lexicalBlock: UInt64 = 0x0b
    /// `DW_TAG_compile_unit`.
    public static let compileUnit: UInt64 = 0x11
    /// `DW_TAG_inlined_subroutine`.
    public static let inlinedSubroutine: UInt64 = 0x1d
    /// `DW_TAG_subprogram`.
    public static let subprogram: UInt64 = 0x2e
    /// `DW_TAG_partial_unit`.
    public static let partialUnit: UInt64 = 0x3c
    /// `DW_TAG_type_unit`.
    public static let typeUnit: UInt64 = 0x41
    /// `DW_TAG_skeleton_unit`.
    public static let skeletonUnit: UInt64 = 0x4a
}

/// DWARF attribute numbers (`DW_AT_*`) that the symbolicator looks at.
public enum DWARFAttribute {
    /// `DW_AT_name`.
    public static let name: UInt64 = 0x03
    /// `DW_AT_stmt_list`.
    public static let stmtList: UInt64 = 0x10
    /// `DW_AT_low_pc`.
    public static let lowPC: UInt64 = 0x11
    /// `DW_AT_high_pc`.
    public static let highPC: UInt64 = 0x12
    /// `DW_AT_comp_dir`.
    public static let compDir: UInt64 = 0x1b
    /// `DW_AT_abstract_origin`.
    public static let abstractOrigin: UInt64 = 0x31
    /// `DW_AT_declaration`.
    public static let declaration: UInt64 = 0x3c
    /// `DW_AT_specification`.
    public static let specification: UInt64 = 0x47
    /// `DW_AT_ranges`.
    public static let ranges: UInt64 = 0x55
    /// `DW_AT_call_column`.
    public static let callColumn: UInt64 = 0x57
    /// `DW_AT_call_file`.
    public static let callFile: UInt64 = 0x58
    /// `DW_AT_call_line`.
    public static let callLine: UInt64 = 0x59
    /// `DW_AT_linkage_name`.
    public static let linkageName: UInt64 = 0x6e
    /// `DW_AT_str_offsets_base`.
    public static let strOffsetsBase: UInt64 = 0x72
    /// `DW_AT_addr_base`.
    public static let addrBase: UInt64 = 0x73
    /// `DW_AT_rnglists_base`.
    public static let rnglistsBase: UInt64 = 0x74
    /// `DW_AT_MIPS_linkage_name`, still emitted by older compilers.
    public static let mipsLinkageName: UInt64 = 0x2007
    /// `DW_AT_GNU_ranges_base` (pre-standard split DWARF).
    public static let gnuRangesBase: UInt64 = 0x2132
    /// `DW_AT_GNU_addr_base` (pre-standard split DWARF).
    public static let gnuAddrBase: UInt64 = 0x2133
}

/// DWARF attribute form numbers (`DW_FORM_*`).
public enum DWARFForm {
    /// `DW_FORM_addr`.
    public static let addr: UInt64 = 0x01
    /// `DW_FORM_block2`.
    public static let block2: UInt64 = 0x03
    /// `DW_FORM_block4`.
    public static let block4: UInt64 = 0x04
    /// `DW_FORM_data2`.
    public static let data2: UInt64 = 0x05
    /// `DW_FORM_data4`.
    public static let data4: UInt64 = 0x06
    /// `DW_FORM_data8`.
    public static let data8: UInt64 = 0x07
    /// `DW_FORM_string`.
    public static let string: UInt64 = 0x08
    /// `DW_FORM_block`.
    public static let block: UInt64 = 0x09
    /// `DW_FORM_block1`.
    public static let block1: UInt64 = 0x0a
    /// `DW_FORM_data1`.
    public static let data1: UInt64 = 0x0b
    /// `DW_FORM_flag`.
    public static let flag: UInt64 = 0x0c
    /// `DW_FORM_sdata`.
    public static let sdata: UInt64 = 0x0d
    /// `DW_FORM_strp`.
    public static let strp: UInt64 = 0x0e
    /// `DW_FORM_udata`.
    public static let udata: UInt64 = 0x0f
    /// `DW_FORM_ref_addr`.
    public static let refAddr: UInt64 = 0x10
    /// `DW_FORM_ref1`.
    public static let ref1: UInt64 = 0x11
    /// `DW_FORM_ref2`.
    public static let ref2: UInt64 = 0x12
    /// `DW_FORM_ref4`.
    public static let ref4: UInt64 = 0x13
    /// `DW_FORM_ref8`.
    public static let ref8: UInt64 = 0x14
    /// `DW_FORM_ref_udata`.
    public static let refUdata: UInt64 = 0x15
    /// `DW_FORM_indirect`.
    public static let indirect: UInt64 = 0x16
    /// `DW_FORM_sec_offset`.
    public static let secOffset: UInt64 = 0x17
    /// `DW_FORM_exprloc`.
    public static let exprloc: UInt64 = 0x18
    /// `DW_FORM_flag_present`.
    public static let flagPresent: UInt64 = 0x19
    /// `DW_FORM_strx`.
    public static let strx: UInt64 = 0x1a
    /// `DW_FORM_addrx`.
    public static let addrx: UInt64 = 0x1b
    /// `DW_FORM_ref_sup4`.
    public static let refSup4: UInt64 = 0x1c
    /// `DW_FORM_strp_sup`.
    public static let strpSup: UInt64 = 0x1d
    /// `DW_FORM_data16`.
    public static let data16: UInt64 = 0x1e
    /// `DW_FORM_line_strp`.
    public static let lineStrp: UInt64 = 0x1f
    /// `DW_FORM_ref_sig8`.
    public static let refSig8: UInt64 = 0x20
    /// `DW_FORM_implicit_const`.
    public static let implicitConst: UInt64 = 0x21
    /// `DW_FORM_loclistx`.
    public static let loclistx: UInt64 = 0x22
    /// `DW_FORM_rnglistx`.
    public static let rnglistx: UInt64 = 0x23
    /// `DW_FORM_ref_sup8`.
    public static let refSup8: UInt64 = 0x24
    /// `DW_FORM_strx1`.
    public static let strx1: UInt64 = 0x25
    /// `DW_FORM_strx2`.
    public static let strx2: UInt64 = 0x26
    /// `DW_FORM_strx3`.
    public static let strx3: UInt64 = 0x27
    /// `DW_FORM_strx4`.
    public static let strx4: UInt64 = 0x28
    /// `DW_FORM_addrx1`.
    public static let addrx1: UInt64 = 0x29
    /// `DW_FORM_addrx2`.
    public static let addrx2: UInt64 = 0x2a
    /// `DW_FORM_addrx3`.
    public static let addrx3: UInt64 = 0x2b
    /// `DW_FORM_addrx4`.
    public static let addrx4: UInt64 = 0x2c
    /// `DW_FORM_GNU_addr_index`.
    public static let gnuAddrIndex: UInt64 = 0x1f01
    /// `DW_FORM_GNU_str_index`.
    public static let gnuStrIndex: UInt64 = 0x1f02
    /// `DW_FORM_GNU_ref_alt`.
    public static let gnuRefAlt: UInt64 = 0x1f20
    /// `DW_FORM_GNU_strp_alt`.
    public static let gnuStrpAlt: UInt64 = 0x1f21
}
