@_exported import TandemCore
@_exported import struct TandemSQLite.RenderedSQL
@_exported import enum TandemSQLite.SQLBinding
