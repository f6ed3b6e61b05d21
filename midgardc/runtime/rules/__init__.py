"""The interpreter's rules by concern: each module is the Python meaning of one kind of
construct, and the code generated for it is emitted by the module of the same name in
``midgardc/compiler/emit/`` (see the table there). ``expressions.Program`` compiles a
game's IR to closures; ``moves``, ``effects``, ``captures`` and ``regions`` are bases of
``midgardc.runtime.interpreter.Core`` (the state they read and change); ``zones`` holds
the zone effects and queries as functions of a Core. The functions that are handed a Core
name it by the protocol ``state.CoreState``, never by importing ``interpreter``.
"""
